#if canImport(CMalloc)
import CMalloc
#endif

/// Process-wide allocator settings for long imports: for the programs that import large files
/// (`logbook import-file`, `logbook serve`, the import benchmark), never set by the library itself.
package enum MemoryTuning {
    /// Blocks of 128 KiB and more are mapped on their own and returned to the system when freed.
    ///
    /// glibc raises its mmap threshold each time a large block is freed (up to 32 MiB), after
    /// which the import's large, short-lived buffers (batches of samples, encoded payloads) come
    /// from the heap and fragment it: importing a 1 GB Apple Health export then peaked at
    /// 236–264 MiB RSS; with the threshold fixed it peaks at about 100 MiB, no slower. The price:
    /// code that grows large arrays (the FIT parser keeps a file's records) pays a fresh mapping
    /// per growth, and parses FIT at half its speed; so the commands set it only for large files.
    package static func returnLargeBlocksToTheSystem() {
        #if canImport(CMalloc)
        _ = mallopt(M_MMAP_THRESHOLD, 128 << 10)
        #endif
    }

    /// Blocks below 32 MiB come from the heap again (where glibc's own adjustment ends up): for
    /// the parsing that follows a large import in the same process (the import benchmark).
    package static func keepLargeBlocksInTheHeap() {
        #if canImport(CMalloc)
        _ = mallopt(M_MMAP_THRESHOLD, 32 << 20)
        #endif
    }
}
