import EventLog
import Foundation
import Synchronization

/// An exclusive `flock` on `logbook-writer.lock` in the log's directory, held while a process
/// writes the log. LMDB itself would let two processes write in turn, but the writer's caches
/// assume it is the only one; a second writer gets a clear error instead. The kernel releases the
/// lock when the process dies, however it dies.
final class WriterLockFile: Sendable {
    /// The locked file's descriptor, or -1 once released.
    private let descriptor: Mutex<Int32>

    init(directory: String) throws {
        let path = (directory as NSString).appendingPathComponent("logbook-writer.lock")
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw EventStoreError.storage("cannot open \(path): \(String(cString: strerror(errno)))")
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let reason = errno == EWOULDBLOCK ? "another process is writing this log" : String(cString: strerror(errno))
            close(fd)
            throw EventStoreError.storage("cannot lock \(path) for writing: \(reason)")
        }
        descriptor = Mutex(fd)
    }

    /// Releases the lock and closes the file. Safe to call twice. The explicit unlock matters: a
    /// child process being spawned at that moment shares the open file (until its exec closes
    /// it), and closing alone would leave the lock held through the child's copy.
    func release() {
        descriptor.withLock { fd in
            if fd >= 0 {
                flock(fd, LOCK_UN)
                close(fd)
            }
            fd = -1
        }
    }

    deinit { release() }
}
