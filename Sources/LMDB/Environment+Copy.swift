internal import CLMDB
import Foundation
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#elseif canImport(Darwin)
internal import Darwin
#endif

extension Environment {
    /// Writes a consistent copy of the environment — one snapshot, taken while writers go on —
    /// into a new file `file` (it must not exist), and makes it durable (`fsync`) before
    /// returning the number of bytes written. `compact` (LMDB's `MDB_CP_COMPACT`) leaves free
    /// pages out and renumbers the rest, so the copy is as small as its live data; the copy is a
    /// complete `data.mdb` that LMDB opens as it is.
    ///
    /// The bytes stream through this process (`mdb_env_copyfd2` into a pipe), so `observe` sees
    /// every chunk in order as it is written: hash it, count it for progress. A throw from
    /// `observe`, or any failure, deletes the partial file and is rethrown. Map growth waits for
    /// the copy to end (LMDB resizes only with no transaction open).
    public func copy(toFile file: String, compact: Bool = true, observe: (Span<UInt8>) throws -> Void = { _ in }) throws -> Int {
        try ensureOpen()
        let output = open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard output >= 0 else { throw LMDBError(code: errno, operation: "open(\(file))") }
        var written = 0
        do {
            written = try streamCopy(into: output, file: file, compact: compact, observe: observe)
            guard fsync(output) == 0 else { throw LMDBError(code: errno, operation: "fsync(\(file))") }
            guard FileCalls.close(output) == 0 else {
                unlink(file)
                throw LMDBError(code: errno, operation: "close(\(file))")
            }
        } catch {
            _ = FileCalls.close(output)
            unlink(file)
            throw error
        }
        return written
    }

    /// Runs `mdb_env_copyfd2` on a thread of its own, writing into a pipe this thread drains into
    /// `output`. The pipe is drained to its end whatever happens, so the copying thread never
    /// blocks on a full pipe nor writes into a closed one.
    private func streamCopy(into output: Int32, file: String, compact: Bool, observe: (Span<UInt8>) throws -> Void) throws -> Int {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw LMDBError(code: errno, operation: "pipe") }
        let (readEnd, writeEnd) = (fds[0], fds[1])
        var readEndOpen = true
        defer { if readEndOpen { _ = FileCalls.close(readEnd) } }
        let copier = CopierThread(handle: handle, gate: gate, writeEnd: writeEnd, flags: compact ? UInt32(MDB_CP_COMPACT) : 0)
        copier.start()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var total = 0
        var failure: (any Error)?
        while true {
            let count = buffer.withUnsafeMutableBytes { FileCalls.read(readEnd, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                // Unreadable pipe: closing it makes the copier's next write fail (EPIPE), so it ends.
                failure = failure ?? LMDBError(code: errno, operation: "read(copy pipe)")
                _ = FileCalls.close(readEnd)
                readEndOpen = false
                break
            }
            guard failure == nil else { continue }
            do {
                try buffer.withUnsafeBytes { raw in
                    var offset = 0
                    while offset < count {
                        let done = FileCalls.write(output, raw.baseAddress! + offset, count - offset)
                        if done < 0 {
                            if errno == EINTR { continue }
                            throw LMDBError(code: errno, operation: "write(\(file))")
                        }
                        offset += done
                    }
                }
                try observe(buffer.span.extracting(0..<count))
                total += count
            } catch {
                failure = error
            }
        }
        let rc = copier.wait()
        if let failure { throw failure }
        try check(rc, "mdb_env_copyfd2(\(path)\(compact ? ", compact" : ""))")
        return total
    }
}

/// The thread that runs `mdb_env_copyfd2` for ``Environment/copy(toFile:compact:observe:)``:
/// it holds the environment's transaction gate while it copies (LMDB's copy opens a read
/// transaction) and closes the pipe's write end when done, which ends the reader's loop.
private final class CopierThread: @unchecked Sendable {
    private let handle: OpaquePointer
    private let gate: TransactionGate
    private let writeEnd: Int32
    private let flags: UInt32
    private let done = DispatchSemaphore(value: 0)
    private var rc: Int32 = 0

    init(handle: OpaquePointer, gate: TransactionGate, writeEnd: Int32, flags: UInt32) {
        self.handle = handle
        self.gate = gate
        self.writeEnd = writeEnd
        self.flags = flags
    }

    func start() {
        gate.enter()
        let thread = Thread { [self] in
            rc = mdb_env_copyfd2(handle, writeEnd, flags)
            _ = FileCalls.close(writeEnd)
            gate.leave()
            done.signal()
        }
        thread.name = "lmdb-copy"
        thread.start()
    }

    /// The copy's return code, once it has finished.
    func wait() -> Int32 {
        done.wait()
        return rc
    }
}

/// The system calls the copy makes, by names that do not collide with the environment's own
/// `read`, `write` and `close`.
private enum FileCalls {
    static func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.read(fd, buffer, count)
        #elseif canImport(Musl)
        Musl.read(fd, buffer, count)
        #else
        Darwin.read(fd, buffer, count)
        #endif
    }

    static func write(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(fd, buffer, count)
        #elseif canImport(Musl)
        Musl.write(fd, buffer, count)
        #else
        Darwin.write(fd, buffer, count)
        #endif
    }

    static func close(_ fd: Int32) -> Int32 {
        #if canImport(Glibc)
        Glibc.close(fd)
        #elseif canImport(Musl)
        Musl.close(fd)
        #else
        Darwin.close(fd)
        #endif
    }
}

extension Environment {
    /// Rewrites the data file of the environment in `directory` compacted, in place: opens it
    /// with `options`, copies it compacted beside the file (durably), closes it, then renames the
    /// copy over `data.mdb` in one step (`rename(2)`, then a sync of the directory), so at every
    /// moment the name holds the whole old file or the whole new one. Free pages — which may
    /// still hold bytes of deleted records — are not in the new file. The environment must not be
    /// open in this process, nor written by another one. Returns the file's bytes before and after.
    public static func compactDataFile(inDirectory directory: String, options: EnvironmentOptions) throws -> (before: Int, after: Int) {
        let file = (directory as NSString).appendingPathComponent("data.mdb")
        let compacted = file + ".compacting"
        let before = ((try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? Int) ?? 0
        try? FileManager.default.removeItem(atPath: compacted)
        let environment = try Environment(path: directory, options: options)
        let after: Int
        do {
            after = try environment.copy(toFile: compacted, compact: true)
        } catch {
            environment.close()
            throw error
        }
        environment.close()
        do {
            guard rename(compacted, file) == 0 else { throw LMDBError(code: errno, operation: "rename(\(compacted), \(file))") }
            let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard fd >= 0 else { throw LMDBError(code: errno, operation: "open(\(directory))") }
            defer { _ = FileCalls.close(fd) }
            guard fsync(fd) == 0 else { throw LMDBError(code: errno, operation: "fsync(\(directory))") }
        } catch {
            try? FileManager.default.removeItem(atPath: compacted)
            throw error
        }
        return (before, after)
    }
}
