import EventLog
import EventLogPostgres
public import FuzzSupport
import Foundation
import NIOCore
import PostgresNIO

/// The fuzz target of the PostgreSQL backend's row reader: a row of `logbook.events` as a damaged
/// table or server could send it (binary cells of the columns' types, any bytes, any NULLs)
/// answers a recorded event or a typed error (the cell's `PostgresDecodingError`, or the log's
/// corruption or storage error), never traps.
public enum PostgresRowFuzz {
    /// The columns' PostgreSQL types, in `EventRow.columns` order.
    static let types: [PostgresDataType] = [
        .int8, .text, .int8, .uuid, .text, .int4, .text, .int8, .int4, .int8, .int4, .uuid, .uuid, .bytea, .bytea, .int8,
    ]

    /// The input is the row's 16 cells one after the other, each a length byte (255: NULL) and
    /// up to that many bytes. A row whose cells decode is read again with its checksum made right,
    /// and the event it gives, written back into cells, must read as the same event.
    public static let row = FuzzTarget("FuzzPostgresRow") { bytes throws(FuzzFailure) in
        let cells = cells(from: bytes)
        do {
            _ = try EventRow.decode(cells: cells)
        } catch is PostgresDecodingError {
            return
        } catch let error as EventStoreError {
            try FuzzCheck.expect(error.code == .corruption || error.code == .storage, "a row failed with \(error)")
        } catch {
            throw FuzzFailure("a row failed with \(type(of: error)) \(error)")
        }
        guard let sealed = sealed(cells) else { return }
        let event: RecordedEvent
        do {
            event = try EventRow.decode(cells: sealed)
        } catch let error as EventStoreError where error.code == .corruption {
            // Negative position, version or schema version: refused whatever the checksum.
            return
        } catch {
            throw FuzzFailure("a row with its checksum made right does not read: \(error)")
        }
        let again: RecordedEvent
        do {
            again = try EventRow.decode(cells: Self.cells(of: event))
        } catch {
            throw FuzzFailure("an event written back into cells does not read: \(error)")
        }
        try FuzzCheck.expect(again == event, "an event written back into cells reads as another")
    }

    /// The row's cells as the fuzz input lays them out.
    static func cells(from bytes: [UInt8]) -> [PostgresCell] {
        var index = 0
        var cells: [PostgresCell] = []
        for (column, type) in types.enumerated() {
            var buffer: ByteBuffer?
            if index < bytes.count {
                let length = Int(bytes[index])
                index += 1
                if length != 255 {
                    let end = min(bytes.count, index + length)
                    buffer = ByteBuffer(bytes: bytes[index..<end])
                    index = end
                }
            }
            cells.append(PostgresCell(bytes: buffer, dataType: type, format: .binary, columnName: "c\(column)", columnIndex: column))
        }
        return cells
    }

    /// `cells` with the checksum their content hashes to, when every cell decodes.
    static func sealed(_ cells: [PostgresCell]) -> [PostgresCell]? {
        do {
            let header = EventHeader(
                eventId: try cells[3].decode(UUID.self), type: try cells[4].decode(String.self),
                schemaVersion: UInt32(truncatingIfNeeded: try cells[5].decode(Int32.self)), subject: try cells[6].decode(String?.self),
                occurredAt: Timestamp(microsecondsSinceEpoch: try cells[7].decode(Int64.self), utcOffsetSeconds: try cells[8].decode(Int32.self)),
                correlationId: try cells[11].decode(UUID?.self), causationId: try cells[12].decode(UUID?.self))
            let recordedAt = Timestamp(microsecondsSinceEpoch: try cells[9].decode(Int64.self), utcOffsetSeconds: try cells[10].decode(Int32.self))
            let checksum = EventRow.checksum(
                stream: try cells[1].decode(String.self), header: header, recordedAt: recordedAt,
                metadata: Array(try cells[13].decode(ByteBuffer.self).readableBytesView),
                payload: Array(try cells[14].decode(ByteBuffer.self).readableBytesView))
            var sealed = cells
            sealed[15].bytes = integer(checksum)
            return sealed
        } catch {
            return nil
        }
    }

    /// The cells PostgreSQL would send for `event`.
    static func cells(of event: RecordedEvent) -> [PostgresCell] {
        let e = event.envelope
        let h = e.header
        let checksum = EventRow.checksum(stream: e.stream, header: h, recordedAt: e.recordedAt, metadata: event.metadata, payload: event.payload)
        let values: [ByteBuffer?] = [
            integer(Int64(e.position.rawValue)), ByteBuffer(string: e.stream), integer(Int64(e.streamVersion)), uuid(h.eventId),
            ByteBuffer(string: h.type), integer(Int32(h.schemaVersion)), h.subject.map { ByteBuffer(string: $0) },
            integer(h.occurredAt.microsecondsSinceEpoch), integer(h.occurredAt.utcOffsetSeconds),
            integer(e.recordedAt.microsecondsSinceEpoch), integer(e.recordedAt.utcOffsetSeconds), h.correlationId.map(uuid),
            h.causationId.map(uuid), ByteBuffer(bytes: event.metadata), ByteBuffer(bytes: event.payload), integer(checksum),
        ]
        return values.enumerated().map { column, bytes in
            PostgresCell(bytes: bytes, dataType: types[column], format: .binary, columnName: "c\(column)", columnIndex: column)
        }
    }

    private static func integer<T: FixedWidthInteger>(_ value: T) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.writeInteger(value, endianness: .big)
        return buffer
    }

    private static func uuid(_ id: UUID) -> ByteBuffer {
        withUnsafeBytes(of: id.uuid) { ByteBuffer(bytes: $0) }
    }
}
