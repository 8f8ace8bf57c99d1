#if canImport(CMalloc)
import CMalloc
#endif

/// Process-wide allocator settings for long imports.
enum MemoryTuning {
    /// Blocks of 128 KiB and more are mapped on their own and returned to the system when freed.
    ///
    /// glibc raises its mmap threshold each time a large block is freed (up to 32 MiB), after
    /// which the import's large, short-lived buffers (batches of samples, encoded payloads) come
    /// from the heap and fragment it: importing a 1 GB Apple Health export then peaked at
    /// 236–264 MiB RSS; with the threshold fixed it peaks at about 100 MiB, no slower.
    static func returnLargeBlocksToTheSystem() {
        #if canImport(CMalloc)
        _ = mallopt(M_MMAP_THRESHOLD, 128 << 10)
        #endif
    }
}
