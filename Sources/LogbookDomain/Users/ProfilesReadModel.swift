import BinaryCoding
import EventLog

/// A user's profile as the read models need it.
public struct Profile: Sendable, Hashable, Codable {
    public var displayName: String
    public var timeZone: String
    public var weekStart: WeekStart
    public var units: Units
    public var preferredStepSource: String?
    /// Maximum heart rate (bpm), for training zones (the Training article); nil: zones and load are null.
    public var maxHeartRate: Int?
    /// Resting heart rate (bpm): zones then split the heart-rate reserve.
    public var restingHeartRate: Int?
    /// The workout source kinds whose recording of an activity counts, most preferred
    /// first; nil: the richest recording counts.
    public var preferredWorkoutSources: [SourceKind]?
}

extension Profile: TableValue {
    /// The heart-rate settings follow the other fields only when one is set, so the stored
    /// profile of a user without them is byte for byte what it was before they existed (and the
    /// read model's digest with it).
    func encode(into w: inout ByteWriter) {
        w.string(displayName); w.string(timeZone); w.enumeration(weekStart); w.enumeration(units); w.optionalString(preferredStepSource)
        if maxHeartRate != nil || restingHeartRate != nil || preferredWorkoutSources != nil {
            w.optionalInt(maxHeartRate); w.optionalInt(restingHeartRate)
        }
        if let preferredWorkoutSources {
            w.varint(UInt64(preferredWorkoutSources.count))
            for kind in preferredWorkoutSources { w.enumeration(kind) }
        }
    }

    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        displayName = try ByteReader.string(s, &o)
        timeZone = try ByteReader.string(s, &o)
        weekStart = try FieldReader.enumeration(s, &o, WeekStart.self)
        units = try FieldReader.enumeration(s, &o, Units.self)
        preferredStepSource = try FieldReader.optionalString(s, &o)
        if o < s.count {
            maxHeartRate = try FieldReader.optionalInt(s, &o)
            restingHeartRate = try FieldReader.optionalInt(s, &o)
            if o < s.count { preferredWorkoutSources = try FieldReader.enumerations(s, &o, SourceKind.self) }
            guard o == s.count else { throw DecodeFailure(reason: "bytes after a profile") }
        }
    }
}

/// A table key that is just a user id.
struct UserKey: TableKey {
    let user: String
    static func prefixes(ownedBy owner: RecordOwner) -> [[UInt8]] { owner.userPrefixes }
    func encode(into w: inout ByteWriter) { w.keyString(user) }
    init(_ user: String) { self.user = user }
    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        user = try KeyReader.string(s, &o)
    }
    static func < (a: UserKey, b: UserKey) -> Bool { a.user.utf8.lexicographicallyPrecedes(b.user.utf8) }
}

/// Profiles: each user's display name, time zone, week start, units and preferred step source.
/// Several read models and the command rules (goal horizon in the user's time zone) use it.
struct ProfilesReadModel: ReadModel {
    static let kind = ReadModelKind.profiles
    static let codeVersion = 1

    static let folds = Folds<ProfilesReadModel>()
        .on(.userRegistered) { try $0.onUserRegistered($1, $2, $3) }
        .on(.userProfileUpdated) { try $0.onUserProfileUpdated($1, $2, $3) }

    var users: ReadModelTable<UserKey, Profile>

    init(_ tables: ReadModelTables) { users = tables.table("users") }

    mutating func onUserRegistered(_ e: UserRegistered, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        users.set(UserKey(fold.user), Profile(
            displayName: e.displayName, timeZone: e.timeZone, weekStart: e.weekStart, units: e.units, preferredStepSource: nil))
    }

    mutating func onUserProfileUpdated(_ e: UserProfileUpdated, _ fold: FoldEvent, _ txn: (any TableReader)?) throws {
        try users.modifyIfPresent(UserKey(fold.user), txn) { profile in
            if let name = e.displayName { profile.displayName = name }
            if let zone = e.timeZone { profile.timeZone = zone }
            if let start = e.weekStart { profile.weekStart = start }
            if let units = e.units { profile.units = units }
            e.preferredStepSource.apply(to: &profile.preferredStepSource)
            e.maxHeartRate.apply(to: &profile.maxHeartRate)
            e.restingHeartRate.apply(to: &profile.restingHeartRate)
            if let kinds = e.preferredWorkoutSources { profile.preferredWorkoutSources = kinds.isEmpty ? nil : kinds }
        }
    }

    mutating func visitTables<Visitor: TableVisitor>(_ visitor: inout Visitor) throws {
        try visitor.visit(&users)
    }

    /// The profile of `user`, if registered.
    mutating func profile(_ user: String, _ txn: (any TableReader)?) throws -> Profile? {
        try users.get(UserKey(user), txn)
    }
}

extension ReadModelKind {
    /// The profiles read model.
    public static let profiles = ReadModelKind(declared: "profiles")
}

extension ReadModelSet {
    /// The profiles read model, changed in place.
    var profiles: ProfilesReadModel {
        get { self[ProfilesReadModel.self] }
        _modify { yield &self[ProfilesReadModel.self] }
    }
}
