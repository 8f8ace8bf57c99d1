/// Global message numbers of the published FIT profile the writers use.
public enum FITGlobal {
    public static let fileId: UInt16 = 0
    public static let deviceSettings: UInt16 = 2
    public static let userProfile: UInt16 = 3
    public static let zonesTarget: UInt16 = 7
    public static let session: UInt16 = 18
    public static let lap: UInt16 = 19
    public static let record: UInt16 = 20
    public static let event: UInt16 = 21
    public static let deviceInfo: UInt16 = 23
    public static let workout: UInt16 = 26
    public static let workoutStep: UInt16 = 27
    public static let weightScale: UInt16 = 30
    public static let activity: UInt16 = 34
    public static let monitoring: UInt16 = 55
    public static let monitoringInfo: UInt16 = 103
    public static let fieldDescription: UInt16 = 206
    public static let developerDataId: UInt16 = 207
}

/// A FIT `sport` with its `sub_sport`, the profile's names for them, and the activity type the
/// fixture means by it (Logbook's vocabulary: run, walk, ride, swim, hike, strength, yoga, other).
public struct FITSport: Sendable, Hashable {
    public var sport: UInt8
    public var subSport: UInt8
    /// `running`, or `training/strength_training` when the sub-sport adds something.
    public var name: String
    public var activityType: String

    public init(sport: UInt8, subSport: UInt8, name: String, activityType: String) {
        self.sport = sport
        self.subSport = subSport
        self.name = name
        self.activityType = activityType
    }

    public static let generic = FITSport(sport: 0, subSport: 0, name: "generic", activityType: "other")
    public static let running = FITSport(sport: 1, subSport: 0, name: "running", activityType: "run")
    public static let trailRunning = FITSport(sport: 1, subSport: 3, name: "running/trail", activityType: "run")
    public static let cycling = FITSport(sport: 2, subSport: 0, name: "cycling", activityType: "ride")
    public static let roadCycling = FITSport(sport: 2, subSport: 7, name: "cycling/road", activityType: "ride")
    public static let transition = FITSport(sport: 3, subSport: 0, name: "transition", activityType: "other")
    public static let openWaterSwimming = FITSport(sport: 5, subSport: 18, name: "swimming/open_water", activityType: "swim")
    public static let strengthTraining = FITSport(sport: 10, subSport: 20, name: "training/strength_training", activityType: "strength")
    public static let yoga = FITSport(sport: 10, subSport: 43, name: "training/yoga", activityType: "yoga")
    public static let walking = FITSport(sport: 11, subSport: 0, name: "walking", activityType: "walk")
    public static let hiking = FITSport(sport: 17, subSport: 0, name: "hiking", activityType: "hike")
    public static let eBiking = FITSport(sport: 21, subSport: 0, name: "e_biking", activityType: "ride")
    public static let rowing = FITSport(sport: 15, subSport: 0, name: "rowing", activityType: "other")
}

/// FIT `manufacturer` values, and the source kind each stands for.
public enum FITManufacturer {
    public static let garmin: UInt16 = 1
    public static let wahoo: UInt16 = 32
    public static let stryd: UInt16 = 95
    public static let development: UInt16 = 255

    /// "garmin", "wahoo", or "file" for every other maker.
    public static func sourceKind(_ manufacturer: UInt16) -> String {
        switch manufacturer {
        case garmin: "garmin"
        case wahoo: "wahoo"
        default: "file"
        }
    }
}

/// The `file_id` message: what the file is and who made it, when.
public struct FITFileId: Sendable, Hashable {
    /// 4 activity, 2 settings, 5 workout, 9 weight, 15 / 32 monitoring.
    public var type: UInt8
    public var manufacturer: UInt16
    public var product: UInt16
    public var serialNumber: UInt32
    /// Unix seconds.
    public var timeCreated: Int64

    public init(type: UInt8 = 4, manufacturer: UInt16 = FITManufacturer.garmin, product: UInt16 = 1623,
                serialNumber: UInt32, timeCreated: Int64) {
        self.type = type
        self.manufacturer = manufacturer
        self.product = product
        self.serialNumber = serialNumber
        self.timeCreated = timeCreated
    }

    /// time_created in FIT seconds (what source ids are made of).
    public var timeCreatedFIT: UInt32 { UInt32(timeCreated - FixtureTime.fitEpoch) }

    /// The message.
    public var message: FITMessage {
        FITMessage(FITGlobal.fileId, [
            .field(0, .enumeration, Int64(type)), .field(1, .uint16, Int64(manufacturer)), .field(2, .uint16, Int64(product)),
            .field(3, .uint32z, Int64(serialNumber)), .field(4, .uint32, Int64(timeCreatedFIT)),
        ])
    }
}

/// FIT seconds of a Unix time.
func fitTime(_ unix: Int64) -> Int64 { unix - FixtureTime.fitEpoch }

/// A scaled value as the integer a FIT field holds (`(value + offset) × scale`, rounded).
func scaled(_ value: Double?, _ scale: Double, offset: Double = 0) -> Int64? {
    value.map { Int64((($0 + offset) * scale).rounded()) }
}
