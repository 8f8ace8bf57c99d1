/// The few numbers of the published FIT profile this module uses (message and field numbers,
/// scales, enum values), written out from the protocol description.
enum FITProfile {
    /// Global message numbers.
    enum Message {
        static let fileId: UInt16 = 0
        static let sport: UInt16 = 12
        static let session: UInt16 = 18
        static let lap: UInt16 = 19
        static let record: UInt16 = 20
        static let activity: UInt16 = 34
        static let monitoring: UInt16 = 55
        static let monitoringInfo: UInt16 = 103
    }

    /// Field 253, the timestamp of every message that has one.
    static let timestampField: UInt8 = 253

    /// file_id fields.
    enum FileId {
        static let type: UInt8 = 0, manufacturer: UInt8 = 1, product: UInt8 = 2
        static let serialNumber: UInt8 = 3, timeCreated: UInt8 = 4
    }

    /// session and lap fields that share numbers (start_time … total_calories).
    enum Summary {
        static let startTime: UInt8 = 2
        static let elapsed: UInt8 = 7, timer: UInt8 = 8, distance: UInt8 = 9, calories: UInt8 = 11
    }

    /// session-only fields.
    enum Session {
        static let sport: UInt8 = 5, subSport: UInt8 = 6
        static let avgHeartRate: UInt8 = 16, maxHeartRate: UInt8 = 17
        static let movingTime: UInt8 = 59
    }

    /// lap-only fields.
    enum Lap {
        static let avgHeartRate: UInt8 = 15, maxHeartRate: UInt8 = 16, movingTime: UInt8 = 52
    }

    /// record fields (altitude scale 5 offset 500; speed scale 1000; distance scale 100).
    enum Record {
        static let latitude: UInt8 = 0, longitude: UInt8 = 1, altitude: UInt8 = 2
        static let heartRate: UInt8 = 3, cadence: UInt8 = 4, distance: UInt8 = 5, speed: UInt8 = 6
        static let power: UInt8 = 7, compressedSpeedDistance: UInt8 = 8
        static let enhancedSpeed: UInt8 = 73, enhancedAltitude: UInt8 = 78
    }

    /// activity fields (local_timestamp − timestamp = UTC offset).
    enum Activity {
        static let localTimestamp: UInt8 = 5
    }

    /// monitoring fields: cycles (3) holds steps for walking/running, activity_type (5),
    /// current_activity_type_intensity (24, type in the low 5 bits), timestamp_16 (26).
    enum Monitoring {
        static let cycles: UInt8 = 3, activityType: UInt8 = 5
        static let typeAndIntensity: UInt8 = 24, timestamp16: UInt8 = 26
        static let localTimestamp: UInt8 = 11
    }

    /// monitoring_info fields.
    enum MonitoringInfo {
        static let localTimestamp: UInt8 = 0
    }

    /// FIT epoch 1989-12-31T00:00:00Z as Unix seconds.
    static let epochOffset: Int64 = 631_065_600
    /// date_time values below this are seconds since device power-up, not wall-clock time.
    static let minimumWallClock: Int64 = 0x1000_0000
    /// Degrees per semicircle (180 / 2^31).
    static let degreesPerSemicircle = 180.0 / 2_147_483_648.0

    /// The UTC offset a local_timestamp (a uint32 local_date_time) gives at `utc`, when both are
    /// there and the offset is within ±18 h. A value outside uint32 (a definition may make the
    /// field a sint64) is not a local time: no subtraction or `abs` ever sees it.
    static func utcOffset(local: Int64?, utc: UInt32?) -> Int32? {
        guard let local = local.flatMap({ UInt32(exactly: $0) }), let utc else { return nil }
        let offset = Int64(local) - Int64(utc)
        return (-18 * 3600...18 * 3600).contains(offset) ? Int32(offset) : nil
    }

    /// file_id.type names.
    static func fileTypeName(_ type: Int64) -> String {
        switch type {
        case 1: "device"; case 2: "settings"; case 3: "sport"; case 4: "activity"; case 5: "workout"
        case 6: "course"; case 7: "schedules"; case 9: "weight"; case 10: "totals"; case 11: "goals"
        case 14: "blood_pressure"; case 15: "monitoring_a"; case 20: "activity_summary"
        case 28: "monitoring_daily"; case 32: "monitoring_b"; case 34: "segment"; case 35: "segment_list"
        case 40: "exd_configuration"
        default: "type \(type)"
        }
    }

    /// Whether a file type carries monitoring messages.
    static func isMonitoring(_ type: Int64) -> Bool { type == 15 || type == 28 || type == 32 }

    /// `sourceKind` for a file_id manufacturer: 1 garmin → "garmin", 32 wahoo_fitness → "wahoo", else "file".
    static func sourceKind(manufacturer: Int64?) -> String {
        switch manufacturer {
        case 1: SourceKind.garmin
        case 32: SourceKind.wahoo
        default: SourceKind.file
        }
    }

    private static let sportNames = [
        "generic", "running", "cycling", "transition", "fitness_equipment", "swimming", "basketball", "soccer",
        "tennis", "american_football", "training", "walking", "cross_country_skiing", "alpine_skiing",
        "snowboarding", "rowing", "mountaineering", "hiking", "multisport", "paddling", "flying", "e_biking",
        "motorcycling", "boating", "driving", "golf", "hang_gliding", "horseback_riding", "hunting", "fishing",
        "inline_skating", "rock_climbing", "sailing", "ice_skating", "sky_diving", "snowshoeing", "snowmobiling",
        "stand_up_paddleboarding", "surfing", "wakeboarding", "water_skiing", "kayaking", "rafting",
        "windsurfing", "kitesurfing", "tactical", "jumpmaster", "boxing", "floor_climbing",
    ]

    private static let subSportNames = [
        "generic", "treadmill", "street", "trail", "track", "spin", "indoor_cycling", "road", "mountain",
        "downhill", "recumbent", "cyclocross", "hand_cycling", "track_cycling", "indoor_rowing", "elliptical",
        "stair_climbing", "lap_swimming", "open_water", "flexibility_training", "strength_training", "warm_up",
        "match", "exercise", "challenge", "indoor_skiing", "cardio_training", "indoor_walking", "e_bike_fitness",
        "bmx", "casual_walking", "speed_walking", "bike_to_run_transition", "run_to_bike_transition",
        "swim_to_bike_transition", "atv", "motocross", "backcountry", "resort", "rc_drone", "wingsuit",
        "whitewater", "skate_skiing", "yoga", "pilates", "indoor_running", "gravel_cycling", "e_bike_mountain",
        "commuting", "mixed_surface", "navigate", "track_me", "map", "single_gas_diving", "multi_gas_diving",
        "gauge_diving", "apnea_diving", "apnea_hunting", "virtual_activity", "obstacle",
    ]

    /// Profile name of a sport value ("sport_N" when newer than this table).
    static func sportName(_ sport: Int64) -> String {
        sport >= 0 && sport < sportNames.count ? sportNames[Int(sport)] : "sport_\(sport)"
    }

    /// Profile name of a sub_sport value.
    static func subSportName(_ subSport: Int64) -> String {
        subSport >= 0 && subSport < subSportNames.count ? subSportNames[Int(subSport)] : "sub_sport_\(subSport)"
    }

    /// "running", or "training/strength_training" when the sub-sport adds something.
    static func sportText(sport: Int64?, subSport: Int64?) -> String? {
        guard let sport else { return subSport.map(subSportName) }
        guard let subSport, subSport != 0 else { return sportName(sport) }
        return sportName(sport) + "/" + subSportName(subSport)
    }
}
