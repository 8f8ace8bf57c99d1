import LMDB
import LogbookStorage

/// A replay's chunks written into the store on a task of their own while the next chunk folds:
/// the chunk's changed records are flushed into memory (``RecordedWrites``) and handed off, and
/// one write transaction puts them and moves the checkpoints. At most one write is pending, and
/// each commits before the next begins, so the checkpoints move in order and a crash leaves the
/// store at the last committed chunk, as when the fold wrote its chunks itself.
///
/// While a write is pending the fold keeps every record it handed off in its cache, where range
/// reads find them (``ReadModelTable/markHandedOff()``); forgetting the cache waits for the write.
struct ChunkWrites {
    private var pending: Task<Void, any Error>?

    /// Waits for the pending write, if any: afterwards the store holds every chunk handed off
    /// (the write's error is thrown here).
    mutating func settle(_ groups: [FoldGroup]) async throws {
        guard let write = pending else { return }
        pending = nil
        try await write.value
        for group in groups { group.withProjections { $0.markWritten() } }
    }

    /// Waits for the pending write and ignores how it ended: the replay failed already, and the
    /// store is left at whichever chunk committed last.
    mutating func abandon() async {
        _ = await pending?.result
        pending = nil
    }

    /// Flushes what `groups` changed into memory and starts writing it, with `kinds`' checkpoints
    /// moved to `position`, after the write before it (awaited first).
    mutating func handOff(
        _ groups: [FoldGroup], moving kinds: [ReadModelKind], to position: UInt64, in store: ReadModelStore, _ build: ReadModelStore.Build
    ) async throws {
        try await settle(groups)
        let recorder = WriteRecorder()
        for group in groups { try group.withProjections { try $0.flush(recorder) } }
        for group in groups { group.withProjections { $0.markHandedOff() } }
        let writes = recorder.recorded
        pending = Task(executorPreference: ReplayThreads.shared) {
            // The closure may run twice (the map grew): the writes are put again.
            try store.environment.write { txn in
                try writes.write(into: LMDBTableWriter(txn))
                for kind in kinds {
                    try store.setCheckpoint(kind, build, .init(position: position, codeVersion: kind.codeVersion, rebuilding: true), txn)
                }
            }
            // The chunk's pages need not stay resident: a rebuild's memory is a chunk's (the
            // embedded log shares this map, so its pages go too).
            store.environment.releaseResidentPages()
        }
    }
}
