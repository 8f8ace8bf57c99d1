import ChildProcesses
import Foundation

/// Raw deflate (RFC 1951) of fixture bytes, made by Python's `zlib` (level 9, no zlib or gzip
/// wrapper): the package has no zlib module of its own, and Python is installed by `tools/setup`.
/// Everything around the deflated bytes — zip headers, gzip members, CRCs — is written in Swift.
public enum Deflate {
    /// Thrown when `python3` is missing or fails.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// `bytes` deflated.
    public static func raw(_ bytes: [UInt8]) throws -> [UInt8] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("logbook-deflate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in"), output = directory.appendingPathComponent("out")
        try Data(bytes).write(to: input)
        let script = """
            import sys, zlib
            c = zlib.compressobj(9, zlib.DEFLATED, -15)
            data = open(sys.argv[1], "rb").read()
            open(sys.argv[2], "wb").write(c.compress(data) + c.flush())
            """
        let status: Int32
        do {
            status = try ChildProcess("/usr/bin/env", ["python3", "-c", script, input.path, output.path], output: false).wait().status
        } catch { throw Failure(description: "cannot run python3 for deflate: \(error)") }
        guard status == 0, let deflated = try? Data(contentsOf: output) else {
            throw Failure(description: "python3 zlib exited with status \(status)")
        }
        return [UInt8](deflated)
    }
}

/// A zip entry to write: stored (method 0) or deflated (method 8).
public struct ZipEntry: Sendable, Hashable {
    public var name: String
    public var content: [UInt8]
    public var deflated: Bool
    /// XOR'ed into the CRC-32 written for the entry (0: the right one).
    public var crcDamage: UInt32 = 0

    public init(name: String, content: [UInt8], deflated: Bool) {
        self.name = name
        self.content = content
        self.deflated = deflated
    }
}

/// Writes zip archives (PKWARE APPNOTE: local headers, data, central directory, end record).
public enum ZipWriter {
    /// The archive's bytes.
    public static func archive(_ entries: [ZipEntry]) throws -> [UInt8] {
        var out: [UInt8] = [], central: [UInt8] = []
        for entry in entries {
            let data = entry.deflated ? try Deflate.raw(entry.content) : entry.content
            let crc = Checksum.crc32(entry.content) ^ entry.crcDamage
            let name = Array(entry.name.utf8)
            let offset = UInt32(out.count)
            let method = entry.deflated ? 8 : 0
            func common(_ into: inout [UInt8]) {
                into.append(le16: 20)  // version needed
                into.append(le16: 0)  // flags
                into.append(le16: method)
                into.append(le16: 0x6000)  // 12:00
                into.append(le16: 0x5821)  // 2024-01-01
                into.append(le32: crc)
                into.append(le32: UInt32(data.count))
                into.append(le32: UInt32(entry.content.count))
                into.append(le16: name.count)
                into.append(le16: 0)  // extra
            }
            out.append(le32: 0x0403_4B50)
            common(&out)
            out += name + data
            central.append(le32: 0x0201_4B50)
            central.append(le16: 0x031E)  // made by: Unix, 3.0
            common(&central)
            central.append(le16: 0)  // comment
            central.append(le16: 0)  // disk
            central.append(le16: 0)  // internal attributes
            central.append(le32: 0o100644 << 16)
            central.append(le32: offset)
            central += name
        }
        let centralOffset = UInt32(out.count)
        out += central
        out.append(le32: 0x0605_4B50)
        out.append(le16: 0)
        out.append(le16: 0)
        out.append(le16: entries.count)
        out.append(le16: entries.count)
        out.append(le32: UInt32(central.count))
        out.append(le32: centralOffset)
        out.append(le16: 0)
        return out
    }
}

/// Writes gzip members (RFC 1952) with a file name, mtime 0.
public enum GzipWriter {
    /// `content` gzipped; `crcDamage` is XOR'ed into the CRC-32 of the trailer.
    public static func member(_ content: [UInt8], name: String, crcDamage: UInt32 = 0) throws -> [UInt8] {
        var out: [UInt8] = [0x1F, 0x8B, 8, 0x08, 0, 0, 0, 0, 2, 3]
        out += Array(name.utf8) + [0]
        out += try Deflate.raw(content)
        out.append(le32: Checksum.crc32(content) ^ crcDamage)
        out.append(le32: UInt32(truncatingIfNeeded: content.count))
        return out
    }
}
