import Foundation
import WorkoutFileFixtures
@testable import WorkoutFiles
import Zlib

/// DEFLATE and gzip streams built bit by bit in the tests (no compressor involved).
enum DeflateTestStreams {
    /// LSB-first bit writer, as DEFLATE packs its bits.
    struct BitWriter {
        var bytes: [UInt8] = []
        var bitCount = 0

        mutating func write(_ value: UInt32, bits: Int) {
            for bit in 0..<bits {
                if bitCount % 8 == 0 { bytes.append(0) }
                if value >> UInt32(bit) & 1 == 1 { bytes[bytes.count - 1] |= UInt8(1 << (bitCount % 8)) }
                bitCount += 1
            }
        }

        /// A Huffman code goes most significant bit first.
        mutating func writeCode(_ code: UInt32, bits: Int) {
            for bit in stride(from: bits - 1, through: 0, by: -1) { write(code >> UInt32(bit) & 1, bits: 1) }
        }
    }

    /// One fixed-Huffman block: the byte `byte`, then `repeats` copies of (length 258,
    /// distance 1) — 13 bits for every 258 output bytes, a ratio of about 159:1.
    static func run(of byte: UInt8, repeats: Int) -> [UInt8] {
        var w = BitWriter()
        w.write(1, bits: 1) // BFINAL
        w.write(1, bits: 2) // fixed Huffman
        w.writeCode(0x30 + UInt32(byte), bits: 8) // literal 0–143
        for _ in 0..<repeats {
            w.writeCode(0xC0 + (285 - 280), bits: 8) // length 258
            w.writeCode(0, bits: 5) // distance 1
        }
        w.writeCode(0, bits: 7) // end of block (256)
        return w.bytes
    }

    /// `data` as stored (uncompressed) DEFLATE blocks.
    static func stored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var index = 0
        repeat {
            let count = min(65_535, data.count - index)
            let final: UInt8 = index + count == data.count ? 1 : 0
            out += [final, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            out += data[index..<(index + count)]
            index += count
        } while index < data.count
        return out
    }

    /// A gzip member around a raw DEFLATE stream of `data`.
    static func gzip(deflated: [UInt8], of data: [UInt8]) -> [UInt8] {
        var crc = CRC32()
        crc.update(data)
        var out = LEBytes()
        out.append([0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF])
        out.append(deflated)
        out.u32(crc.checksum)
        out.u32(UInt32(truncatingIfNeeded: data.count))
        return out.bytes
    }

    /// A gzip member holding `data` in stored blocks.
    static func gzip(_ data: [UInt8]) -> [UInt8] { gzip(deflated: stored(data), of: data) }

    /// A small GPX with one timed track of `points` points.
    static func gpx(points: Int) -> [UInt8] {
        var text = "<gpx xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><trkseg>"
        for index in 0..<points {
            text += "<trkpt lat=\"45.\(index)\" lon=\"13.0\"><time>2021-03-02T07:00:\(String(format: "%02d", index % 60))Z</time></trkpt>"
        }
        return Array((text + "</trkseg></trk></gpx>").utf8)
    }
}
