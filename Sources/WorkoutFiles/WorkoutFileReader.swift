public import Foundation

extension WorkoutFileFormat {
    /// Guesses the format from the first bytes of a file (4 KiB is plenty; gzip-compressed
    /// input should be detected on its decompressed bytes) and its name; nil when unknown.
    ///
    /// FIT by its ".FIT" header signature; zip archives as Apple Health exports; XML by the
    /// first of `<gpx`, `<TrainingCenterDatabase`, `<HealthData` / `<!DOCTYPE HealthData`;
    /// CSV by an "Activity ID," header or a `.csv` name; otherwise by the file extension.
    public static func detect(prefix: [UInt8], fileName: String) -> WorkoutFileFormat? {
        var name = fileName.lowercased()
        if name.hasSuffix(".gz") { name.removeLast(3) }
        if prefix.count >= 12, prefix[0] >= 12, prefix[8] == UInt8(ascii: "."), prefix[9] == UInt8(ascii: "F"),
           prefix[10] == UInt8(ascii: "I"), prefix[11] == UInt8(ascii: "T") {
            return .fit
        }
        if prefix.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return .appleHealth }
        let head = Array(prefix.prefix(64 << 10))
        let markers: [(String, WorkoutFileFormat)] = [
            ("<gpx", .gpx), ("<TrainingCenterDatabase", .tcx), ("<HealthData", .appleHealth),
            ("<!DOCTYPE HealthData", .appleHealth),
        ]
        let found = markers.compactMap { marker, format in firstIndex(of: Array(marker.utf8), in: head).map { ($0, format) } }
        if let earliest = found.min(by: { $0.0 < $1.0 }) { return earliest.1 }
        let body = head.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(head.dropFirst(3)) : head
        if body.starts(with: Array("Activity ID,".utf8)) || name.hasSuffix(".csv") { return .stravaCSV }
        if name.hasSuffix(".fit") { return .fit }
        if name.hasSuffix(".gpx") { return .gpx }
        if name.hasSuffix(".tcx") { return .tcx }
        if name.hasSuffix(".zip") || name.hasSuffix("export.xml") { return .appleHealth }
        return nil
    }
}

/// Offset of the first occurrence of `needle` in `haystack`.
private func firstIndex(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
    guard let first = needle.first, haystack.count >= needle.count else { return nil }
    var index = 0
    while index <= haystack.count - needle.count {
        if haystack[index] == first, haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
        index += 1
    }
    return nil
}

/// One entry point for every format: detects the format (or takes the one given),
/// transparently decompresses `.gz` files, and runs the matching parser. Each parser's own
/// `parse` and `stream` (``WorkoutFileParser``) come here with their format given.
public enum WorkoutFileReader {
    /// Parses a file of any supported format.
    public static func parse(_ url: URL, format: WorkoutFileFormat? = nil,
                             options: ParseOptions = ParseOptions()) throws -> ParsedFile {
        try ParseDriver.collect { try stream(url, format: format, options: options, $0) }
    }

    /// Parses in-memory bytes of any supported format (Apple Health zips need a file URL).
    public static func parse(bytes: [UInt8], fileName: String, format: WorkoutFileFormat? = nil,
                             options: ParseOptions = ParseOptions()) throws -> ParsedFile {
        try ParseDriver.collect { sink in
            try run(source: MemoryByteSource(bytes), name: fileName, format: format, options: options, sink)
        }
    }

    /// Streams workouts and step batches of a file of any supported format to `sink`.
    public static func stream(_ url: URL, format: WorkoutFileFormat? = nil, options: ParseOptions = ParseOptions(),
                              _ sink: (WorkoutFileEvent) throws -> Void) throws -> StreamSummary {
        let name = ParseDriver.displayName(url, options)
        let probe = try FileByteSource(url: url, name: name, deadline: options.readDeadline)
        var magic = [UInt8](repeating: 0, count: 4)
        let got = try magic.withUnsafeMutableBytes { try probe.read(into: $0) }
        if got == 4, magic == [0x50, 0x4B, 0x03, 0x04], format == nil || format == .appleHealth {
            return try AppleHealthParser(options: options).streamArchive(url, name: name, sink)
        }
        return try run(source: try FileByteSource(url: url, name: name, deadline: options.readDeadline), name: name, format: format,
                       options: options, sink)
    }

    /// Reads `source`, unwrapping at most one gzip layer: real exports compress a file once, and
    /// each further layer would cost a new inflater for a few bytes of input.
    static func run(source: any ByteSource, name: String, format: WorkoutFileFormat?, options: ParseOptions,
                    insideGzip: Bool = false, _ sink: (WorkoutFileEvent) throws -> Void) throws -> StreamSummary {
        var head = [UInt8](repeating: 0, count: 8192)
        var filled = 0
        while filled < head.count {
            let got = try head.withUnsafeMutableBytes { raw in
                try source.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[filled...]))
            }
            if got == 0 { break }
            filled += got
        }
        head.removeSubrange(filled...)
        var input: any ByteSource = PrefixedByteSource(prefix: head, base: source)
        if GzipSource.isGzip(head) {
            guard !insideGzip else {
                throw WorkoutFileError(code: .unsupported, fileName: name, byteOffset: 0,
                                       message: "gzip inside gzip: only one layer of gzip compression is read")
            }
            input = try GzipSource(base: input, fileName: name, options: options)
            return try run(source: input, name: name, format: format, options: options, insideGzip: true, sink)
        }
        guard let chosen = format ?? WorkoutFileFormat.detect(prefix: head, fileName: name) else {
            throw WorkoutFileError(code: .unsupported, fileName: name, byteOffset: 0, message: "not a FIT, GPX, TCX, Apple Health or Strava CSV file")
        }
        if chosen == .appleHealth, head.starts(with: [0x50, 0x4B, 0x03, 0x04]) {
            throw WorkoutFileError(code: .unsupported, fileName: name, byteOffset: 0, message: "an Apple Health zip must be read from a file URL")
        }
        return try chosen.parser(options: options).stream(source: input, name: name, sink)
    }
}
