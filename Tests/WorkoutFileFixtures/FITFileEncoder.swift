/// Writes FIT files message by message (FIT protocol: file header, record headers, definition
/// and data messages, file CRC), remembering where each message went so tests can name the byte a
/// parser should complain about.
///
/// `write(_:local:)` defines a local message type again whenever the message's fields differ from
/// the definition in force (as devices do); `compressTimestamp` writes a compressed-timestamp
/// record header instead of field 253 when the FIT rules allow it (local type 0–3, less than 32 s
/// after the last full timestamp).
public struct FITEncoder: Sendable {
    /// What a record of the data section is.
    public enum Kind: Sendable, Hashable {
        case definition, data, compressedTimestampData, raw
    }

    /// One record of the data section.
    public struct Record: Sendable, Hashable {
        public var kind: Kind
        public var local: UInt8
        public var global: UInt16
        /// Offset in the data section (``EncodedFIT`` gives offsets in the file).
        public var offset: Int
        public var length: Int
    }

    private struct Layout: Hashable {
        var global: UInt16
        var bigEndian: Bool
        var fields: [FITFieldDefinition]
        var developer: [FITDeveloperFieldDefinition]
    }

    /// Byte order of the definitions this encoder writes (architecture 1 = big-endian).
    public var bigEndian: Bool
    public private(set) var body: [UInt8] = []
    public private(set) var records: [Record] = []
    private var layouts: [UInt8: Layout] = [:]
    /// The last full timestamp written (what a compressed timestamp counts from).
    public private(set) var lastTimestamp: UInt32?

    public init(bigEndian: Bool = false) { self.bigEndian = bigEndian }

    /// Writes a definition message for `local`.
    public mutating func define(local: UInt8, global: UInt16, fields: [FITFieldDefinition],
                                developer: [FITDeveloperFieldDefinition] = [], bigEndian: Bool? = nil) {
        let big = bigEndian ?? self.bigEndian
        let start = body.count
        body.append(0x40 | (developer.isEmpty ? 0 : 0x20) | (local & 0x0F))
        body += [0, big ? 1 : 0]
        body.append(integer: UInt64(global), size: 2, bigEndian: big)
        body.append(UInt8(fields.count))
        for field in fields { body += [field.number, UInt8(field.size), field.baseType.number] }
        if !developer.isEmpty {
            body.append(UInt8(developer.count))
            for field in developer { body += [field.number, UInt8(field.size), field.developerIndex] }
        }
        layouts[local] = Layout(global: global, bigEndian: big, fields: fields, developer: developer)
        records.append(Record(kind: .definition, local: local, global: global, offset: start, length: body.count - start))
    }

    /// Writes `message` as local message type `local`, defining it first when needed.
    public mutating func write(_ message: FITMessage, local: UInt8, compressTimestamp: Bool = false) {
        var fields = message.fields
        var compressedOffset: UInt8?
        if compressTimestamp, local < 4, let stamp = message.timestamp, let last = lastTimestamp, stamp >= last, stamp - last < 32 {
            fields.removeAll { $0.definition.number == 253 }
            compressedOffset = UInt8(stamp & 0x1F)
        }
        let layout = Layout(global: message.global, bigEndian: bigEndian,
                            fields: fields.map(\.definition), developer: message.developerFields.map(\.definition))
        if layouts[local] != layout {
            define(local: local, global: message.global, fields: layout.fields, developer: layout.developer, bigEndian: layout.bigEndian)
        }
        let start = body.count
        body.append(compressedOffset.map { 0x80 | (local << 5) | $0 } ?? local)
        body += message.payload(fields, bigEndian: layout.bigEndian)
        if let stamp = message.timestamp { lastTimestamp = stamp }
        records.append(Record(kind: compressedOffset == nil ? .data : .compressedTimestampData, local: local,
                              global: message.global, offset: start, length: body.count - start))
    }

    /// Writes a data message for `local` with the payload given as it is (no definition is checked:
    /// for messages whose local type was never defined).
    public mutating func writeUnchecked(local: UInt8, payload: [UInt8]) {
        let start = body.count
        body.append(local & 0x0F)
        body += payload
        records.append(Record(kind: .data, local: local, global: 0xFFFF, offset: start, length: body.count - start))
    }

    /// Appends bytes as they are.
    public mutating func appendRaw(_ bytes: [UInt8]) {
        records.append(Record(kind: .raw, local: 0, global: 0xFFFF, offset: body.count, length: bytes.count))
        body += bytes
    }

    /// The file: a 12- or 14-byte header (`headerCRC: false` writes 0, "not computed"), the data
    /// section and the file CRC.
    public func file(headerSize: Int = 14, headerCRC: Bool = true, protocolVersion: UInt8 = 0x20,
                     profileVersion: UInt16 = 2132) -> EncodedFIT {
        precondition(headerSize == 12 || headerSize == 14)
        var bytes: [UInt8] = [UInt8(headerSize), protocolVersion]
        bytes.append(le16: Int(profileVersion))
        bytes.append(le32: UInt32(body.count))
        bytes += Array(".FIT".utf8)
        if headerSize == 14 { bytes.append(le16: headerCRC ? Int(Checksum.fit(bytes)) : 0) }
        bytes += body
        bytes.append(le16: Int(Checksum.fit(bytes)))
        return EncodedFIT(bytes: bytes, headerSize: headerSize,
                          records: records.map { var moved = $0; moved.offset += headerSize; return moved })
    }
}

/// A written FIT file and where its parts are.
public struct EncodedFIT: Sendable, Hashable {
    public var bytes: [UInt8]
    public var headerSize: Int
    /// The data section's records, with offsets in the file.
    public var records: [FITEncoder.Record]

    public init(bytes: [UInt8], headerSize: Int, records: [FITEncoder.Record]) {
        self.bytes = bytes
        self.headerSize = headerSize
        self.records = records
    }

    /// Offset of the two-byte file CRC.
    public var crcOffset: Int { bytes.count - 2 }

    /// The records of `global`, in order (data messages only).
    public func dataRecords(_ global: UInt16) -> [FITEncoder.Record] {
        records.filter { $0.global == global && $0.kind != .definition }
    }

    /// Several FIT files back to back, as one file (FIT "chained files").
    public static func chain(_ files: [EncodedFIT]) -> [UInt8] { files.flatMap(\.bytes) }
}
