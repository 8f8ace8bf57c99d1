import Foundation

/// Files and directories that hold user data are the owner's alone (the Privacy article): files 0600,
/// directories 0700, whatever the process's umask. Every place that creates a store, a scratch
/// store, a backup, an export or an upload goes through here.
package enum PrivateFiles {
    /// The mode of a file holding user data.
    package static let fileMode: UInt32 = 0o600
    /// The mode of a directory holding user data.
    package static let directoryMode: UInt32 = 0o700

    /// Creates the directory at `path`, and any missing parents, as 0700; an existing directory
    /// is left as it is (it was chosen by whoever made it).
    package static func createDirectory(atPath path: String) throws {
        try FileManager.default.createDirectory(
            atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: Int(directoryMode)])
    }

    /// Creates an empty file at `path` (replacing one that is there) as 0600; false if it cannot.
    package static func createFile(atPath path: String) -> Bool {
        FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: Int(fileMode)])
    }

    /// A new, empty directory under the system's temporary directory, 0700, named `prefix`
    /// followed by a random UUID.
    package static func temporaryDirectory(prefix: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)\(UUID().uuidString)").path
        try createDirectory(atPath: path)
        return path
    }
}
