/// `user.registered`: a user's profile is created.
public struct UserRegistered: Sendable, Hashable, Codable {
    public var displayName: String
    /// An IANA time zone id, e.g. `Europe/Berlin`.
    public var timeZone: String
    public var weekStart: WeekStart
    public var units: Units

    public init(displayName: String, timeZone: String, weekStart: WeekStart = .monday, units: Units = .metric) {
        self.displayName = displayName
        self.timeZone = timeZone
        self.weekStart = weekStart
        self.units = units
    }
}

/// `user.profile_updated`: any of the profile fields change; absent fields stay as they were.
public struct UserProfileUpdated: Sendable, Hashable, Codable {
    public var displayName: String?
    public var timeZone: String?
    public var weekStart: WeekStart?
    public var units: Units?
    /// The step source whose samples count; ``OptionalChange/clear`` goes back to "largest source".
    public var preferredStepSource: OptionalChange<String>

    public init(
        displayName: String? = nil, timeZone: String? = nil, weekStart: WeekStart? = nil, units: Units? = nil,
        preferredStepSource: OptionalChange<String> = .unchanged
    ) {
        self.displayName = displayName
        self.timeZone = timeZone
        self.weekStart = weekStart
        self.units = units
        self.preferredStepSource = preferredStepSource
    }

    enum CodingKeys: String, CodingKey { case displayName, timeZone, weekStart, units, preferredStepSource }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        displayName = try container.decodeIfPresent(String.self, forKey: .displayName)
        timeZone = try container.decodeIfPresent(String.self, forKey: .timeZone)
        weekStart = try container.decodeIfPresent(WeekStart.self, forKey: .weekStart)
        units = try container.decodeIfPresent(Units.self, forKey: .units)
        if !container.contains(.preferredStepSource) {
            preferredStepSource = .unchanged
        } else if try container.decodeNil(forKey: .preferredStepSource) {
            preferredStepSource = .clear
        } else {
            preferredStepSource = .set(try container.decode(String.self, forKey: .preferredStepSource))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(displayName, forKey: .displayName)
        try container.encodeIfPresent(timeZone, forKey: .timeZone)
        try container.encodeIfPresent(weekStart, forKey: .weekStart)
        try container.encodeIfPresent(units, forKey: .units)
        switch preferredStepSource {
        case .unchanged: break
        case .clear: try container.encodeNil(forKey: .preferredStepSource)
        case .set(let source): try container.encode(source, forKey: .preferredStepSource)
        }
    }
}

/// A change to an optional field: leave it, clear it, or set it.
public enum OptionalChange<Value: Sendable & Hashable>: Sendable, Hashable {
    case unchanged
    case clear
    case set(Value)
}
