import LMDB

/// The payload format recorded in the log's own environment (beside the read models'
/// checkpoints), so the log and its key store can be checked against each other on open.
struct PayloadFormatMarker {
    private let environment: Environment
    private let meta: Database?
    private static let key = Array("payloads".utf8)

    init(_ environment: Environment, readOnly: Bool) throws {
        self.environment = environment
        meta = try? environment.openDatabase(named: "rm.meta", create: !readOnly)
    }

    func read() throws -> PayloadFormat? {
        guard let meta else { return nil }
        let text = try environment.read { txn in try txn.get(meta, key: Self.key.span) { String(decoding: $0.copiedBytes(), as: UTF8.self) } }
        guard let text else { return nil }
        guard let format = PayloadFormat(rawValue: text) else {
            throw LogbookError.storage("the log keeps payloads as \"\(text)\", which this build does not know")
        }
        return format
    }

    func write(_ format: PayloadFormat) throws {
        guard let meta else { return }
        try environment.write { txn in try txn.put(meta, key: Self.key.span, value: Array(format.rawValue.utf8).span) }
    }
}
