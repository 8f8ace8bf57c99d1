import Crypto
import Synchronization

/// What one read's answer was computed from: each query it asked, with its parameters and the
/// version of that query's answers for the user (the last log position that can change them,
/// ``AnswerVersionsReadModel``), read in the same snapshot as the answer. A host derives the
/// answer's entity tag from it (``entityTag``), for conditional reads (`ETag`, `If-None-Match`).
///
/// Bind a trail around the reads of one request:
///
/// ```swift
/// let trail = AnswerTrail()
/// let week = try await AnswerTrail.$current.withValue(trail) { try await logbook.weeklyStats(user: "ana", containing: day) }
/// let tag = trail.entityTag   // changes exactly when an event that can change `week` is appended
/// ```
///
/// - A cached answer carries the steps recorded when it was computed, and a hit replays them, so
///   a tag is never newer than the answer it is sent with (a tag read after the answer could name
///   a commit the cached answer predates, and a client would keep a stale body under a new tag).
/// - An answer as of a past position records that position: the log is append-only, so it never
///   changes. An answer that depends on the clock records the moment or day it was judged at.
/// - Code versions are part of the tag: a new read-model code version or answer form changes
///   every tag, though no event was appended.
public final class AnswerTrail: Sendable {
    /// One query an answer read.
    public struct Step: Sendable, Hashable {
        /// The query's cache (``CachedQuery/name``), prefixed `as-of ` for an answer as of a past position.
        public let query: String
        /// The query's parameters, as its cache keys them.
        public let parameters: String
        /// The version read with it.
        public let version: UInt64
    }

    /// The trail of the read running in this task, if its host asked for one.
    @TaskLocal public static var current: AnswerTrail?

    private let steps = Mutex<[Step]>([])

    public init() {}

    /// The steps recorded, in order.
    public var recorded: [Step] { steps.withLock { $0 } }

    /// Notes a step in the current trail (if any).
    package static func record(_ query: String, _ parameters: String, version: UInt64) {
        current?.steps.withLock { $0.append(Step(query: query, parameters: parameters, version: version)) }
    }

    /// Notes steps a cached answer carried, in the current trail (if any).
    package static func replay(_ replayed: [Step]) {
        guard !replayed.isEmpty, let current else { return }
        current.steps.withLock { $0.append(contentsOf: replayed) }
    }

    /// Bumped when an answer's form changes without a read model's code version changing (a
    /// field added to a JSON answer, a chart drawn differently): every tag changes with it.
    public static let answerForm = 1

    /// The hash state after the answer form and every read model's code version, the tag's first
    /// bytes (hashed once; each tag continues a copy).
    private static let codeVersions: SHA256 = {
        var header = "logbook-answer \(answerForm)"
        for kind in ReadModelKind.allCases { header += " \(kind.rawValue)=\(kind.codeVersion)" }
        var hasher = SHA256()
        hasher.update(data: Array(header.utf8) + [0])
        return hasher
    }()

    /// A strong entity tag (quoted) derived from the steps, the answer form and every read
    /// model's code version; nil when nothing was recorded (the read is not conditional).
    ///
    /// Each distinct step is hashed as the bytes `query 0x01 parameters 0x01 version 0x00`, in
    /// byte order of those lines, so the tag does not depend on the order concurrent reads
    /// recorded them.
    public var entityTag: String? {
        let recorded = self.recorded
        guard !recorded.isEmpty else { return nil }
        var hasher = Self.codeVersions
        if recorded.count == 1 {
            hasher.update(data: Self.line(recorded[0]))
        } else {
            for line in Set(recorded).map(Self.line).sorted(by: { $0.lexicographicallyPrecedes($1) }) {
                hasher.update(data: line)
            }
        }
        return "\"" + hasher.finalize().prefix(16).hexDigits + "\""
    }

    /// One step's bytes in the tag.
    private static func line(_ step: Step) -> [UInt8] {
        var line: [UInt8] = []
        line.reserveCapacity(step.query.utf8.count + step.parameters.utf8.count + 24)
        line.append(contentsOf: step.query.utf8)
        line.append(1)
        line.append(contentsOf: step.parameters.utf8)
        line.append(1)
        line.append(contentsOf: String(step.version).utf8)
        line.append(0)
        return line
    }
}
