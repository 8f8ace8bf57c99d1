import BinaryCoding
import EventLog
import EventLogLMDB
public import FuzzSupport
import Foundation
import Logbook

/// The fuzz targets of what Logbook reads back from its own storage — records a damaged disk or
/// a bug could have changed: they answer a value or a typed error, never trap (the HostileInput article).
public enum StoredRecordFuzz {
    /// The position the fuzzed LMDB records are read at (it seeds their checksum).
    static let position: UInt64 = 42

    /// The first byte picks the reader: even, an LMDB log record (`RecordCodec`); odd, the compact
    /// form of a checked wire event (an import's spill file). The rest is the record.
    public static let logRecord = FuzzTarget("FuzzLogRecord") { bytes throws(FuzzFailure) in
        guard let selector = bytes.first else { return }
        let record = Array(bytes.dropFirst())
        if selector & 1 == 0 { try lmdbRecord(record) } else { try compactWireEvent(record) }
    }

    /// Any bytes decode as a record header or throw `DecodeFailure`; checked as stored, they answer
    /// the same header or a corruption error; a header that decodes, resealed with its checksum by
    /// the encoder, verifies and decodes to the same fields.
    static func lmdbRecord(_ record: [UInt8]) throws(FuzzFailure) {
        let header: RecordHeader
        do {
            header = try RecordCodec.decodeUnchecked(record.span)
        } catch {
            do {
                _ = try RecordCodec.decodeVerified(record.span, position: position)
                throw FuzzFailure("a record that does not decode passed the checked decode")
            } catch let failure as FuzzFailure {
                throw failure
            } catch {
                return
            }
        }
        do {
            let verified = try RecordCodec.decodeVerified(record.span, position: position)
            try FuzzCheck.expect(verified == header, "the checked decode answers another header")
        } catch let failure as FuzzFailure {
            throw failure
        } catch let error as EventStoreError {
            try FuzzCheck.expect(error.code == .corruption, "a stored record failed with \(error), not corruption")
        } catch {
            throw FuzzFailure("a stored record failed with \(type(of: error)) \(error)")
        }
        var writer = ByteWriter()
        let tail = record[header.tailStart...]
        RecordCodec.encode(
            into: &writer, position: position, typeNumber: header.typeNumber, streamNumber: header.streamNumber,
            streamVersion: header.streamVersion, streamLinks: header.streamLinks, subjectNumber: header.subjectNumber,
            subjectSequence: header.subjectSequence, subjectLinks: header.subjectLinks,
            occurredMicros: header.occurredAt.microsecondsSinceEpoch, recordedAt: header.recordedAt,
            tail: tail, tailHash: RecordCodec.tailHash(Array(tail).span))
        let sealed = writer.bytes
        let again: RecordHeader
        do {
            again = try RecordCodec.decodeVerified(sealed.span, position: position)
        } catch {
            throw FuzzFailure("a resealed record does not verify: \(error)")
        }
        var expected = header
        let shift = again.tailStart - header.tailStart
        expected.tailStart = again.tailStart
        expected.metadataRange = (header.metadataRange.lowerBound + shift)..<(header.metadataRange.upperBound + shift)
        expected.payloadRange = (header.payloadRange.lowerBound + shift)..<(header.payloadRange.upperBound + shift)
        // A subject number of 0 is "no subject": the encoder writes no subject links for it.
        if header.subjectNumber == 0 {
            expected.subjectSequence = again.subjectSequence
            expected.subjectLinks = again.subjectLinks
        }
        try FuzzCheck.expect(again == expected, "a resealed record decodes to other fields")
    }

    /// The compact form of a checked wire event reads as an event or a `LogbookError`, and the
    /// event writes back the same compact bytes' meaning.
    static func compactWireEvent(_ record: [UInt8]) throws(FuzzFailure) {
        let event: WireEvent
        do {
            event = try WireEvent(compact: record.span)
        } catch {
            return
        }
        let written = event.compactBytes
        do {
            let again = try WireEvent(compact: written.span)
            try FuzzCheck.expect(again.compactBytes == written, "a compact wire event writes back another event")
        } catch let failure as FuzzFailure {
            throw failure
        } catch {
            throw FuzzFailure("a compact wire event's own bytes do not read back: \(error)")
        }
    }

    /// A stored read-model record: the first byte picks the record type (every key and value type
    /// of every read model's tables), the rest is the record. What decodes encodes to bytes that
    /// decode and encode to the same bytes.
    public static let readModelRecord = FuzzTarget("FuzzReadModel") { bytes throws(FuzzFailure) in
        guard let selector = bytes.first else { return }
        let codec = TableRecordCodecs.all[Int(selector) % TableRecordCodecs.all.count]
        let record = Array(bytes.dropFirst())
        let written: [UInt8]
        do {
            written = try codec.reencode(record.span)
        } catch is DecodeFailure {
            return
        } catch {
            throw FuzzFailure("\(codec.name): a record failed with \(type(of: error)) \(error), not a DecodeFailure")
        }
        do {
            let again = try codec.reencode(written.span)
            try FuzzCheck.expect(again == written, "\(codec.name): a record writes back as another")
        } catch let failure as FuzzFailure {
            throw failure
        } catch {
            throw FuzzFailure("\(codec.name): a record's own bytes do not decode: \(error)")
        }
    }
}
