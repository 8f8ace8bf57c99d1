/// Receives the decoded stream of a FIT file.
protocol FITMessageHandler {
    /// A new (possibly chained) FIT file starts at `offset`.
    mutating func fileStarted(index: Int, offset: Int64)
    /// A data message was decoded.
    mutating func message(_ message: FITMessage) throws
    /// The FIT file that started last ended with a good CRC.
    mutating func fileEnded(index: Int) throws
}

/// Walks FIT record headers, definitions and data messages over a bounded window.
///
/// Handles normal and compressed-timestamp record headers, local message types redefined at
/// any point, per-definition byte order, developer fields (skipped), chained FIT files, and
/// checks the header CRC and every file CRC. Each loop iteration consumes at least one byte.
/// At most `maxChainedFiles` FIT files may be chained in one input.
struct FITDecoder {
    /// Most chained FIT files one input may hold (real devices chain two or three).
    static let maxChainedFiles = 10_000

    let fileName: String
    let window: ByteWindow

    init(source: any ByteSource, fileName: String) {
        self.fileName = fileName
        self.window = ByteWindow(source: source, chunkSize: 256 << 10, maxCapacity: 1 << 20)
    }

    private func fail(_ code: WorkoutFileError.Code, _ offset: Int64, _ message: String) -> WorkoutFileError {
        WorkoutFileError(code: code, fileName: fileName, byteOffset: offset, message: message)
    }

    /// Makes `count` bytes available or throws `truncated` naming `what`.
    private func require(_ count: Int, _ what: String) throws {
        let got: Int
        do { got = try window.fill(atLeast: count) } catch is ByteWindow.LimitError {
            throw fail(.limitExceeded, window.offset, "\(what) needs \(count) bytes")
        }
        if got < count {
            throw fail(.truncated, window.offset + Int64(got), "file ends inside \(what)")
        }
    }

    /// Decodes every chained FIT file in the input.
    func decode<Handler: FITMessageHandler>(into handler: inout Handler) throws {
        var fileIndex = 0
        while true {
            let available = try window.fill(atLeast: 1)
            if available == 0 {
                if fileIndex == 0 { throw fail(.truncated, 0, "the file is empty") }
                return
            }
            guard fileIndex < Self.maxChainedFiles else {
                throw fail(.limitExceeded, window.offset, "more than \(Self.maxChainedFiles) chained FIT files")
            }
            try decodeOneFile(index: fileIndex, into: &handler)
            fileIndex += 1
        }
    }

    private func decodeOneFile<Handler: FITMessageHandler>(index: Int, into handler: inout Handler) throws {
        let fileStart = window.offset
        try require(12, "the FIT header")
        let headerSize = Int(window.bytes[window.start])
        if headerSize > 12 { try window.fill(atLeast: headerSize) }
        let header = try FITHeader.parse(window.bytes + window.start, available: window.available,
                                         fileName: fileName, offset: fileStart)
        var crc = FITCRC()
        crc.update(UnsafeRawBufferPointer(start: window.bytes + window.start, count: header.headerSize))
        window.start += header.headerSize
        let dataEnd = window.offset + Int64(header.dataSize)
        handler.fileStarted(index: index, offset: fileStart)

        var definitions = [FITDefinition?](repeating: nil, count: 16)
        var lastTimestamp: UInt32 = 0
        while window.offset < dataEnd {
            let messageStart = window.offset
            try require(1, "a record header")
            let recordHeader = window.bytes[window.start]
            var messageSize: Int
            if recordHeader & 0x80 == 0, recordHeader & 0x40 != 0 {
                // Definition message.
                try require(6, "a definition message")
                let base = window.bytes + window.start
                guard base[2] <= 1 else {
                    throw fail(.malformedFIT, messageStart + 2, "architecture byte \(base[2]) is neither 0 nor 1")
                }
                let bigEndian = base[2] == 1
                let global = bigEndian ? UInt16(base[3]) << 8 | UInt16(base[4]) : UInt16(base[4]) << 8 | UInt16(base[3])
                let fieldCount = Int(base[5])
                let hasDeveloperFields = recordHeader & 0x20 != 0
                messageSize = 6 + fieldCount * 3
                try require(messageSize + (hasDeveloperFields ? 1 : 0), "a definition message")
                var developerCount = 0
                if hasDeveloperFields {
                    developerCount = Int(window.bytes[window.start + messageSize])
                    messageSize += 1 + developerCount * 3
                    try require(messageSize, "a definition message")
                }
                let bytes = window.bytes + window.start
                var fields: [FITFieldDefinition] = []
                fields.reserveCapacity(fieldCount)
                var offset = 0
                for f in 0..<fieldCount {
                    let p = bytes + 6 + f * 3
                    fields.append(FITFieldDefinition(number: p[0], size: Int(p[1]), baseType: p[2], offset: offset))
                    offset += Int(p[1])
                }
                if hasDeveloperFields {
                    for d in 0..<developerCount { offset += Int(bytes[7 + fieldCount * 3 + d * 3 + 1]) }
                }
                definitions[Int(recordHeader & 0x0F)] = FITDefinition(globalNumber: global, bigEndian: bigEndian,
                                                                      fields: fields, dataSize: offset)
            } else {
                let local = recordHeader & 0x80 != 0 ? Int((recordHeader >> 5) & 0x03) : Int(recordHeader & 0x0F)
                guard let definition = definitions[local] else {
                    throw fail(.undefinedLocalMessage, messageStart,
                               "data message uses local message type \(local), which has no definition")
                }
                messageSize = 1 + definition.dataSize
                guard messageStart + Int64(messageSize) <= dataEnd else {
                    throw fail(.truncated, messageStart, "a \(messageSize)-byte message runs past the end of the data section")
                }
                try require(messageSize, "a data message")
                let payload = UnsafeRawPointer(window.bytes + window.start + 1)
                var timestamp: UInt32?
                if recordHeader & 0x80 != 0 {
                    let offset = UInt32(recordHeader & 0x1F)
                    var value = (lastTimestamp & ~0x1F) | offset
                    if offset < lastTimestamp & 0x1F { value &+= 0x20 }
                    lastTimestamp = value
                    timestamp = value
                }
                let message = FITMessage(definition: definition, payload: payload, timestamp: timestamp)
                if let stamp = message.integer(253), stamp >= 0, stamp <= Int64(UInt32.max) {
                    lastTimestamp = UInt32(stamp)
                    timestamp = lastTimestamp
                }
                try handler.message(FITMessage(definition: definition, payload: payload, timestamp: timestamp))
            }
            guard messageStart + Int64(messageSize) <= dataEnd else {
                throw fail(.truncated, messageStart, "a \(messageSize)-byte message runs past the end of the data section")
            }
            crc.update(UnsafeRawBufferPointer(start: window.bytes + window.start, count: messageSize))
            window.start += messageSize
        }
        try require(2, "the file CRC")
        let stored = UInt16(window.bytes[window.start]) | UInt16(window.bytes[window.start + 1]) << 8
        guard stored == crc.value else {
            throw fail(.badCRC, window.offset, "file CRC is 0x\(String(stored, radix: 16)) but the data hashes to 0x\(String(crc.value, radix: 16))")
        }
        window.start += 2
        try handler.fileEnded(index: index)
    }
}
