/// A session or lap: the summary fields the two messages share (FIT profile: start_time,
/// total_elapsed_time and total_timer_time in ms, total_distance in cm, total_calories, heart
/// rates, total_moving_time). Times are Unix seconds; values must sit on the field's resolution.
public struct FITSummary: Sendable, Hashable {
    public var start: Int64
    /// The message's timestamp: when the session or lap ended.
    public var end: Int64
    public var elapsedSeconds: Double?
    public var timerSeconds: Double?
    public var movingSeconds: Double?
    public var distanceMeters: Double?
    public var calories: Int?
    public var avgHeartRate: Int?
    public var maxHeartRate: Int?
    /// Sessions only.
    public var sport: FITSport = .generic

    public init(start: Int64, end: Int64, elapsedSeconds: Double? = nil, timerSeconds: Double? = nil, movingSeconds: Double? = nil,
                distanceMeters: Double? = nil, calories: Int? = nil, avgHeartRate: Int? = nil, maxHeartRate: Int? = nil,
                sport: FITSport = .generic) {
        self.start = start
        self.end = end
        self.elapsedSeconds = elapsedSeconds
        self.timerSeconds = timerSeconds
        self.movingSeconds = movingSeconds
        self.distanceMeters = distanceMeters
        self.calories = calories
        self.avgHeartRate = avgHeartRate
        self.maxHeartRate = maxHeartRate
        self.sport = sport
    }
}

/// A `record` message. Positions are semicircles; altitude must be a multiple of 0.2 m (scale 5,
/// offset 500), speed of 1 mm/s, distance of 1 cm. `compressedSpeedCentimeters` and
/// `compressedDistanceSixteenths` (the running total, in 1/16 m) go into compressed_speed_distance.
public struct FITRecord: Sendable, Hashable {
    public var time: Int64
    public var latitude: Int32?
    public var longitude: Int32?
    public var altitudeMeters: Double?
    public var heartRate: Int?
    public var cadence: Int?
    public var distanceMeters: Double?
    public var speedMetersPerSecond: Double?
    public var powerWatts: Int?
    public var compressedSpeedCentimeters: Int?
    public var compressedDistanceSixteenths: Int?
    /// A developer field's value (written only with ``FITWriteOptions/developerFields``).
    public var developerValue: UInt16?

    public init(time: Int64, latitude: Int32? = nil, longitude: Int32? = nil, altitudeMeters: Double? = nil, heartRate: Int? = nil,
                cadence: Int? = nil, distanceMeters: Double? = nil, speedMetersPerSecond: Double? = nil, powerWatts: Int? = nil) {
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.altitudeMeters = altitudeMeters
        self.heartRate = heartRate
        self.cadence = cadence
        self.distanceMeters = distanceMeters
        self.speedMetersPerSecond = speedMetersPerSecond
        self.powerWatts = powerWatts
    }

    public var latitudeDegrees: Double? { latitude.map { Geo.degrees(semicircles: $0) } }
    public var longitudeDegrees: Double? { longitude.map { Geo.degrees(semicircles: $0) } }
}

/// How to write a FIT file: the same content in different encodings must read the same.
public struct FITWriteOptions: Sendable, Hashable {
    /// Architecture 1 (big-endian) definitions.
    public var bigEndian = false
    /// 12 or 14.
    public var headerSize = 14
    /// Whether a 14-byte header carries its CRC (else 0, "not computed").
    public var headerCRC = true
    /// Records whose time allows it get compressed-timestamp headers.
    public var compressedTimestamps = false
    /// developer_data_id and field_description messages, and a developer field on every record.
    public var developerFields = false
    /// enhanced_speed and enhanced_altitude (uint32) instead of speed and altitude (uint16).
    public var enhancedFields = false
    /// Absent values written as the base type's invalid value instead of being left out of the definition.
    public var absentAsInvalid = false
    /// Timer start and stop_all events around the records.
    public var timerEvents = true

    public init(bigEndian: Bool = false, headerSize: Int = 14, headerCRC: Bool = true, compressedTimestamps: Bool = false,
                developerFields: Bool = false, enhancedFields: Bool = false, absentAsInvalid: Bool = false, timerEvents: Bool = true) {
        self.bigEndian = bigEndian
        self.headerSize = headerSize
        self.headerCRC = headerCRC
        self.compressedTimestamps = compressedTimestamps
        self.developerFields = developerFields
        self.enhancedFields = enhancedFields
        self.absentAsInvalid = absentAsInvalid
        self.timerEvents = timerEvents
    }

    /// Encodings that must all read alike: every combination a device might write.
    public static let variants: [(name: String, options: FITWriteOptions)] = [
        ("plain", FITWriteOptions()),
        ("big-endian", FITWriteOptions(bigEndian: true)),
        ("12-byte header", FITWriteOptions(headerSize: 12)),
        ("header CRC 0", FITWriteOptions(headerCRC: false)),
        ("compressed timestamps", FITWriteOptions(compressedTimestamps: true)),
        ("developer fields", FITWriteOptions(developerFields: true)),
        ("enhanced fields", FITWriteOptions(enhancedFields: true)),
        ("invalid values", FITWriteOptions(absentAsInvalid: true)),
        ("no events", FITWriteOptions(timerEvents: false)),
        ("everything", FITWriteOptions(bigEndian: true, headerSize: 12, compressedTimestamps: true, developerFields: true,
                                       enhancedFields: true, absentAsInvalid: true)),
    ]
}

/// An activity FIT file (file type 4) as devices write one: file_id, device_info, timer events,
/// records with laps and sessions after the records they close, and an activity message whose
/// local_timestamp states the UTC offset.
public struct FITActivityFile: Sendable, Hashable {
    public var fileId: FITFileId
    public var sessions: [FITSummary]
    public var laps: [FITSummary]
    public var records: [FITRecord]
    /// activity.local_timestamp − activity.timestamp; nil writes no local_timestamp.
    public var utcOffsetSeconds: Int32?
    /// Whether an activity message is written at all.
    public var writesActivity = true

    public init(fileId: FITFileId, sessions: [FITSummary], laps: [FITSummary] = [], records: [FITRecord] = [],
                utcOffsetSeconds: Int32? = nil) {
        self.fileId = fileId
        self.sessions = sessions
        self.laps = laps
        self.records = records
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    /// The file in one encoding.
    public func encoded(_ options: FITWriteOptions = FITWriteOptions()) -> EncodedFIT {
        var encoder = FITEncoder(bigEndian: options.bigEndian)
        write(into: &encoder, options)
        return encoder.file(headerSize: options.headerSize, headerCRC: options.headerCRC)
    }

    /// Writes the messages (for files that add more of their own).
    public func write(into encoder: inout FITEncoder, _ options: FITWriteOptions) {
        encoder.write(fileId.message, local: 0)
        if options.developerFields { FITMessages.developerDescription(into: &encoder) }
        let first = records.map(\.time).min() ?? sessions.map(\.start).min() ?? fileId.timeCreated
        let last = sessions.map(\.end).max() ?? records.map(\.time).max() ?? first
        encoder.write(FITMessages.deviceInfo(time: first, fileId), local: 8)
        // The timeline: rank orders what happens at the same second (start, records, stop, lap, session).
        var timeline: [(time: Int64, rank: Int, index: Int)] = []
        if options.timerEvents { timeline += [(first, 0, 0), (last, 2, 1)] }
        timeline += records.indices.map { (records[$0].time, 1, $0) }
        timeline += laps.indices.map { (laps[$0].end, 3, $0) }
        timeline += sessions.indices.map { (sessions[$0].end, 4, $0) }
        for item in timeline.sorted(by: { ($0.time, $0.rank, $0.index) < ($1.time, $1.rank, $1.index) }) {
            switch item.rank {
            case 0, 2: encoder.write(FITMessages.timerEvent(time: item.time, start: item.rank == 0), local: 4)
            case 1:
                encoder.write(FITMessages.record(records[item.index], options), local: 1,
                              compressTimestamp: options.compressedTimestamps)
            case 3: encoder.write(FITMessages.summary(laps[item.index], isSession: false, options), local: 2)
            default: encoder.write(FITMessages.summary(sessions[item.index], isSession: true, options), local: 3)
            }
        }
        guard writesActivity else { return }
        var fields: [FITFieldValue] = [
            .field(253, .uint32, fitTime(last)), .field(1, .uint16, Int64(sessions.count)), .field(2, .enumeration, 0),
            .field(3, .enumeration, 26), .field(4, .enumeration, 1),
        ]
        if let offset = utcOffsetSeconds { fields.append(.field(5, .uint32, fitTime(last) + Int64(offset))) }
        encoder.write(FITMessage(FITGlobal.activity, fields), local: 5)
    }
}
