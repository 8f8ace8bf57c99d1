public import EventLog

/// `steps.recorded`: step-count samples from one or more devices.
public struct StepsRecorded: Sendable, Hashable, Codable {
    public var samples: [StepSample]

    public init(samples: [StepSample]) { self.samples = samples }
}

/// `goal.set`: the step goal (and optional active minutes) for one local date.
public struct GoalSet: Sendable, Hashable, Codable {
    public var date: CivilDate
    public var steps: Int
    public var activeMinutes: Int?

    public init(date: CivilDate, steps: Int, activeMinutes: Int? = nil) {
        self.date = date
        self.steps = steps
        self.activeMinutes = activeMinutes
    }
}

/// `goal.cleared`: a date goes back to the default goal.
public struct GoalCleared: Sendable, Hashable, Codable {
    public var date: CivilDate

    public init(date: CivilDate) { self.date = date }
}

/// `goal.default_set`: the default goal from the local day of the event's `occurredAt` onwards.
public struct GoalDefaultSet: Sendable, Hashable, Codable {
    public var steps: Int
    public var activeMinutes: Int?

    public init(steps: Int, activeMinutes: Int? = nil) {
        self.steps = steps
        self.activeMinutes = activeMinutes
    }
}

/// `place.added`: a place joins the shared catalog (at the end of every deck).
public struct PlaceAdded: Sendable, Hashable, Codable {
    public var placeId: String
    public var name: String
    public var category: PlaceCategory
    public var subcategory: String
    public var latitude: Double
    public var longitude: Double
    public var address: String?
    public var phone: String?
    public var priceLevel: Int?
    public var notes: String?

    public init(
        placeId: String, name: String, category: PlaceCategory, subcategory: String, latitude: Double, longitude: Double,
        address: String? = nil, phone: String? = nil, priceLevel: Int? = nil, notes: String? = nil
    ) {
        self.placeId = placeId
        self.name = name
        self.category = category
        self.subcategory = subcategory
        self.latitude = latitude
        self.longitude = longitude
        self.address = address
        self.phone = phone
        self.priceLevel = priceLevel
        self.notes = notes
    }
}

/// `place.swiped`: right = interested (saved), left = not interested (hidden).
public struct PlaceSwiped: Sendable, Hashable, Codable {
    public var placeId: String
    public var direction: SwipeDirection

    public init(placeId: String, direction: SwipeDirection) {
        self.placeId = placeId
        self.direction = direction
    }
}

/// `place.visited`: the user went there.
public struct PlaceVisited: Sendable, Hashable, Codable {
    public var placeId: String
    public var visitedAt: Timestamp

    public init(placeId: String, visitedAt: Timestamp) {
        self.placeId = placeId
        self.visitedAt = visitedAt
    }
}

/// `place.notes_edited`: the user's own notes on a place.
public struct PlaceNotesEdited: Sendable, Hashable, Codable {
    public var placeId: String
    public var notes: String

    public init(placeId: String, notes: String) {
        self.placeId = placeId
        self.notes = notes
    }
}
