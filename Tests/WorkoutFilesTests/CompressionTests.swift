import DemoData
import Foundation
import Testing
@testable import WorkoutFiles
import Zlib

/// Inflate (zlib through `InflateSource`), zip and gzip readers, on synthetic fixtures and hand-built streams:
/// the framing (CRC-32, sizes, stored and Huffman blocks) and damage cases the hand-written inflate was tested with.
@Suite struct CompressionTests {
    static func inflate(_ bytes: [UInt8]) throws -> [UInt8] {
        let source = try InflateSource(input: MemoryByteSource(bytes), fileName: "test")
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 7919)
        while true {
            let got = try chunk.withUnsafeMutableBytes { try source.read(into: $0) }
            if got == 0 { return out }
            out += chunk[0..<got]
        }
    }

    static func crc(_ bytes: [UInt8]) -> UInt32 {
        var crc = CRC32()
        bytes.withUnsafeBytes { crc.update($0) }
        return crc.checksum
    }

    @Test func dynamicHuffmanBlocks() throws {
        let xml = try Self.inflate(CompressionFixtures.exportDeflated)
        #expect(xml.count == CompressionFixtures.exportSize)
        #expect(Self.crc(xml) == CompressionFixtures.exportCRC)
        let route = try Self.inflate(CompressionFixtures.routeDeflated)
        #expect(route.count == CompressionFixtures.routeSize && Self.crc(route) == CompressionFixtures.routeCRC)
    }

    @Test func fixedHuffmanBlock() throws {
        #expect(try Self.inflate(CompressionFixtures.fixedBlock) == Array("hello hello hello fixed huffman".utf8))
    }

    @Test func storedBlocks() throws {
        // Two stored blocks: "abc" (not final) then "defg" (final).
        let stream: [UInt8] = [0x00, 3, 0, 0xFC, 0xFF] + Array("abc".utf8) + [0x01, 4, 0, 0xFB, 0xFF] + Array("defg".utf8)
        #expect(try Self.inflate(stream) == Array("abcdefg".utf8))
        let badLength: [UInt8] = [0x01, 4, 0, 0xFB, 0xFE] + Array("defg".utf8)
        #expect(workoutError { _ = try Self.inflate(badLength) }?.code == .malformedDeflate)
    }

    @Test func damagedStreamsFailCleanly() throws {
        let full = CompressionFixtures.exportDeflated
        #expect(workoutError { _ = try Self.inflate(Array(full.prefix(full.count / 2))) }?.code == .truncated)
        #expect(workoutError { _ = try Self.inflate([0x07]) }?.code == .malformedDeflate)
        var rng = SplitMix64(seed: 7)
        for _ in 0..<200 {
            var copy = full
            let index = Int.random(in: 0..<copy.count, using: &rng)
            copy[index] ^= UInt8(1 << Int.random(in: 0..<8, using: &rng))
            do { _ = try Self.inflate(copy) } catch is WorkoutFileError {}
        }
    }

    @Test func gzipFile() throws {
        let file = try WorkoutFileReader.parse(bytes: CompressionFixtures.routeGzip, fileName: "ride.gpx.gz")
        #expect(file.format == .gpx)
        #expect(file.workouts.first?.track.count == 40)
        var corrupt = CompressionFixtures.routeGzip
        corrupt[corrupt.count - 6] ^= 0xFF // CRC-32 trailer
        #expect(workoutError { _ = try WorkoutFileReader.parse(bytes: corrupt, fileName: "ride.gpx.gz") }?.code == .badCRC)
    }

    /// Writes a zip whose export.xml and route are deflated, plus a stored README.
    static func writeExportZip() throws -> URL {
        let entries: [ZipTestEntry] = [
            ZipTestEntry(name: "apple_health_export/README.txt", method: 0, data: Array("stored".utf8),
                         size: 6, crc: crc(Array("stored".utf8))),
            ZipTestEntry(name: "apple_health_export/export.xml", method: 8, data: CompressionFixtures.exportDeflated,
                         size: CompressionFixtures.exportSize, crc: CompressionFixtures.exportCRC),
            ZipTestEntry(name: "apple_health_export/workout-routes/route_2021-03-02_7.00am.gpx", method: 8,
                         data: CompressionFixtures.routeDeflated, size: CompressionFixtures.routeSize,
                         crc: CompressionFixtures.routeCRC),
        ]
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("wf-export-\(UUID().uuidString).zip")
        try Data(buildZip(entries)).write(to: url)
        return url
    }

    @Test func appleHealthZipWithDeflatedEntriesAndRoute() throws {
        let url = try Self.writeExportZip()
        defer { try? FileManager.default.removeItem(at: url) }
        let file = try WorkoutFileReader.parse(url)
        #expect(file.format == .appleHealth)
        #expect(file.stepSamples.count == 300)
        #expect(file.stepSamples.reduce(0) { $0 + $1.count } == CompressionFixtures.exportSteps)
        let ride = try #require(file.workouts.first)
        #expect(ride.activityType == "ride")
        #expect(ride.track.count == 40)
        #expect(ride.originalFile == "/workout-routes/route_2021-03-02_7.00am.gpx")
        #expect(abs((ride.distanceMeters ?? 0) - 12_500) < 0.001)
        #expect(ride.activeKcal == 239) // 1000 kJ / 4.184
        #expect(ride.movingSeconds == 1800)
        #expect(ride.startedAt.utcOffsetSeconds == 3600)
    }

    @Test func damagedZipEntryFails() throws {
        var entries = [ZipTestEntry(name: "export.xml", method: 8, data: CompressionFixtures.exportDeflated,
                                    size: CompressionFixtures.exportSize, crc: CompressionFixtures.exportCRC ^ 1)]
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("wf-bad-\(UUID().uuidString).zip")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(buildZip(entries)).write(to: url)
        #expect(workoutError { _ = try AppleHealthParser().parse(url) }?.code == .badCRC)
        entries[0].crc = CompressionFixtures.exportCRC
        var bytes = buildZip(entries)
        bytes.removeLast(10) // cut into the end-of-central-directory record
        try Data(bytes).write(to: url)
        #expect(workoutError { _ = try AppleHealthParser().parse(url) }?.code == .malformedZip)
    }
}

struct ZipTestEntry {
    var name: String
    var method: Int
    var data: [UInt8]
    var size: Int
    var crc: UInt32
}

/// Builds a zip archive in memory from already-compressed entries.
func buildZip(_ entries: [ZipTestEntry]) -> [UInt8] {
    var out: [UInt8] = [], central: [UInt8] = []
    func u16(_ v: Int, _ into: inout [UInt8]) { into += [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)] }
    func u32(_ v: UInt32, _ into: inout [UInt8]) { for s in [0, 8, 16, 24] { into.append(UInt8((v >> UInt32(s)) & 0xFF)) } }
    for entry in entries {
        let offset = UInt32(out.count), name = Array(entry.name.utf8)
        u32(0x0403_4B50, &out); u16(20, &out); u16(0, &out); u16(entry.method, &out); u16(0, &out); u16(0, &out)
        u32(entry.crc, &out); u32(UInt32(entry.data.count), &out); u32(UInt32(entry.size), &out)
        u16(name.count, &out); u16(0, &out); out += name; out += entry.data
        u32(0x0201_4B50, &central); u16(20, &central); u16(20, &central); u16(0, &central); u16(entry.method, &central)
        u16(0, &central); u16(0, &central); u32(entry.crc, &central)
        u32(UInt32(entry.data.count), &central); u32(UInt32(entry.size), &central)
        u16(name.count, &central); u16(0, &central); u16(0, &central); u16(0, &central); u16(0, &central)
        u32(0, &central); u32(offset, &central); central += name
    }
    let centralOffset = UInt32(out.count)
    out += central
    u32(0x0605_4B50, &out); u16(0, &out); u16(0, &out); u16(entries.count, &out); u16(entries.count, &out)
    u32(UInt32(central.count), &out); u32(centralOffset, &out); u16(0, &out)
    return out
}
