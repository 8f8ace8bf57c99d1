import BinaryCoding

/// Changed records flushed into memory instead of a transaction: a replay flushes a chunk's
/// folds into them, then writes them into the store (``write(into:)``) on another task while the
/// next chunk folds. The puts and removals keep their order.
package struct RecordedWrites: Sendable {
    /// Every key's and value's bytes, one after another.
    private var bytes = ByteWriter(capacity: 1 << 16)
    private var operations: [Operation] = []

    /// One put (with a value) or removal (without), its bytes a range of ``bytes``.
    private struct Operation: Sendable {
        var table: StoredTable
        var key: Range<Int>
        var value: Range<Int>?
    }

    package init() {}

    /// How many puts and removals were recorded.
    package var count: Int { operations.count }

    /// How many bytes of keys and values they hold.
    package var byteCount: Int { bytes.bytes.count }

    mutating func put(_ table: StoredTable, key: Span<UInt8>, value: Span<UInt8>) {
        let keyRange = append(key)
        operations.append(Operation(table: table, key: keyRange, value: append(value)))
    }

    mutating func delete(_ table: StoredTable, key: Span<UInt8>) {
        operations.append(Operation(table: table, key: append(key), value: nil))
    }

    private mutating func append(_ span: Span<UInt8>) -> Range<Int> {
        let start = bytes.bytes.count
        bytes.append(span)
        return start..<bytes.bytes.count
    }

    /// Puts and removes the records in `writer`, in the order they were recorded.
    package func write(into writer: any TableWriter) throws {
        let all = bytes.bytes.span
        for operation in operations {
            let key = all.extracting(operation.key)
            if let value = operation.value {
                try writer.put(operation.table, key: key, value: all.extracting(value))
            } else {
                try writer.delete(operation.table, key: key)
            }
        }
    }
}

/// A ``TableWriter`` that records what is flushed into it (``RecordedWrites``) and reads nothing:
/// a flush only writes.
package final class WriteRecorder: TableWriter {
    package private(set) var recorded = RecordedWrites()

    package init() {}

    package func get<R>(_ table: StoredTable, key: Span<UInt8>, _ body: (Span<UInt8>) throws -> R) throws -> R? {
        throw LogbookError.storage("a flush read \(table.name) while its writes were being recorded")
    }

    package func scan(_ table: StoredTable, from start: Span<UInt8>, _ body: (Span<UInt8>, Span<UInt8>) throws -> Bool) throws {
        throw LogbookError.storage("a flush read \(table.name) while its writes were being recorded")
    }

    package func put(_ table: StoredTable, key: Span<UInt8>, value: Span<UInt8>) throws {
        recorded.put(table, key: key, value: value)
    }

    package func delete(_ table: StoredTable, key: Span<UInt8>) throws {
        recorded.delete(table, key: key)
    }
}
