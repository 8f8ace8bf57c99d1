import Foundation
import Synchronization

/// Remembers which LMDB environments this process has open, by device and inode of the directory.
///
/// LMDB forbids opening one environment twice in a process: the second handle's locks and reader
/// table would silently break the first. The registry turns that mistake into an error.
enum OpenEnvironmentRegistry {
    struct FileIdentity: Hashable { let device: UInt64; let inode: UInt64 }

    private static let open = Mutex<Set<FileIdentity>>([])

    static func identity(ofDirectory path: String) throws -> FileIdentity {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            throw LMDBError(code: .init(rawValue: code), message: String(cString: strerror(code)), operation: "stat(\(path))")
        }
        return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    static func register(_ identity: FileIdentity, path: String) throws(LMDBUsageError) {
        let inserted = open.withLock { $0.insert(identity).inserted }
        if !inserted { throw LMDBUsageError.alreadyOpenInProcess(path: path) }
    }

    static func unregister(_ identity: FileIdentity) {
        _ = open.withLock { $0.remove(identity) }
    }
}
