/// A damaged FIT file and what a careful reader must say about it: the error code (the raw
/// value of `WorkoutFileError.Code`) and the byte offset where the damage is found.
public struct DamagedFile: Sendable, Hashable {
    public var name: String
    public var bytes: [UInt8]
    public var code: String
    public var offset: Int64
    /// What was done to the file.
    public var damage: String

    public init(name: String, bytes: [UInt8], code: String, offset: Int, damage: String) {
        self.name = name
        self.bytes = bytes
        self.code = code
        self.offset = Int64(offset)
        self.damage = damage
    }
}

/// The ways FIT files get damaged, made from good encoded files. Each offset follows from the
/// layout the encoder recorded, not from a parse.
public enum FITDamage {
    /// Every variant of `file` (an activity file with records) and `other` (a second good file to
    /// chain after it), named `<stem>-<variant>.fit`.
    public static func all(_ file: EncodedFIT, chainedWith other: EncodedFIT, stem: String) -> [DamagedFile] {
        let good = file.bytes
        func named(_ variant: String) -> String { "\(stem)-\(variant).fit" }
        var variants: [DamagedFile] = []

        // Cut 3 bytes short: the last message (not the CRC alone) loses its end; the reader runs out of input there.
        variants.append(DamagedFile(name: named("unexpected-eof"), bytes: Array(good.dropLast(3)), code: "truncated",
                                    offset: good.count - 3, damage: "cut 3 bytes short"))
        // The file CRC's high byte changed.
        var crc = good
        crc[crc.count - 1] ^= 0x10
        variants.append(DamagedFile(name: named("filecrc"), bytes: crc, code: "badCRC", offset: file.crcOffset, damage: "file CRC changed"))
        // A good copy chained with that corrupted one: the second file's CRC fails.
        variants.append(DamagedFile(name: named("activity-filecrc"), bytes: good + crc, code: "badCRC",
                                    offset: good.count + file.crcOffset, damage: "good file, then one whose CRC changed"))
        // The header CRC changed (14-byte headers only).
        if file.headerSize == 14 {
            var header = good
            header[12] ^= 0x01
            variants.append(DamagedFile(name: named("headercrc"), bytes: header, code: "badCRC", offset: 12, damage: "header CRC changed"))
        }
        // A chained file whose signature reads ".GIT".
        var signature = other.bytes
        signature.replaceSubrange(8..<12, with: Array(".GIT".utf8))
        variants.append(DamagedFile(name: named("corruptheader"), bytes: good + signature, code: "badHeader",
                                    offset: good.count + 8, damage: "chained file whose signature reads .GIT"))
        // A chained 12-byte header promising 68 bytes of which 3 exist (the start of a definition).
        var promise: [UInt8] = [12, 0x10]
        promise.append(le16: 2132)
        promise.append(le32: 68)
        promise += Array(".FIT".utf8) + [0x40, 0, 0]
        variants.append(DamagedFile(name: named("nodata"), bytes: good + promise, code: "truncated",
                                    offset: good.count + promise.count, damage: "chained header with 3 of 68 data bytes"))
        // The header's data size cut by 9 bytes: the last message runs past the end of the data section.
        let last = file.records.last!
        var overrun = good
        let dataSize = UInt32(good.count - file.headerSize - 2 - 9)
        overrun.replace(le32: dataSize, at: 4)
        if file.headerSize == 14 { overrun.replace(le16: Checksum.fit(overrun[0..<12]), at: 12) }
        variants.append(DamagedFile(name: named("overrun"), bytes: overrun, code: "truncated", offset: last.offset,
                                    damage: "data size 9 bytes short: the last message claims bytes beyond it"))
        // A data message of local type 11, never defined, after the first record.
        let firstRecord = file.dataRecords(FITGlobal.record).first!
        let insertAt = firstRecord.offset + firstRecord.length
        var undefined = Array(good[file.headerSize..<insertAt]) + [0x0B, 1, 2, 3] + Array(good[insertAt..<file.crcOffset])
        undefined = sealed(undefined, headerSize: file.headerSize)
        variants.append(DamagedFile(name: named("undefined-local"), bytes: undefined, code: "undefinedLocalMessage",
                                    offset: insertAt, damage: "data message of local type 11, never defined"))
        // A compressed-timestamp header naming local type 3 before anything defined it.
        let early = sealed([0x80 | (3 << 5) | 4], headerSize: 14)
        variants.append(DamagedFile(name: named("undefined-compressed"), bytes: early, code: "undefinedLocalMessage",
                                    offset: 14, damage: "compressed-timestamp header of local type 3, never defined"))
        // The first definition's architecture byte is 7.
        let definition = file.records.first { $0.kind == .definition }!
        var architecture = good
        architecture[definition.offset + 2] = 7
        variants.append(DamagedFile(name: named("architecture"), bytes: architecture, code: "malformedFIT",
                                    offset: definition.offset + 2, damage: "architecture byte 7"))
        // Protocol major version 3.
        variants.append(DamagedFile(name: named("protocol3"), bytes: sealed(Array(good[file.headerSize..<file.crcOffset]),
                                                                           headerSize: file.headerSize, protocolVersion: 0x30),
                                    code: "unsupported", offset: 1, damage: "protocol version 3.0"))
        // A header size below 12.
        var small = good
        small[0] = 11
        variants.append(DamagedFile(name: named("headersize"), bytes: small, code: "badHeader", offset: 0, damage: "header size 11"))
        // Input that ends inside the header.
        variants.append(DamagedFile(name: named("header-only"), bytes: Array(good.prefix(10)), code: "truncated", offset: 10,
                                    damage: "10 bytes: the header is cut"))
        variants.append(DamagedFile(name: named("empty"), bytes: [], code: "truncated", offset: 0, damage: "no bytes"))
        return variants
    }

    /// `body` as a whole FIT file: a fresh header and CRCs around it.
    public static func sealed(_ body: [UInt8], headerSize: Int, protocolVersion: UInt8 = 0x20) -> [UInt8] {
        var encoder = FITEncoder()
        encoder.appendRaw(body)
        return encoder.file(headerSize: headerSize, protocolVersion: protocolVersion).bytes
    }
}
