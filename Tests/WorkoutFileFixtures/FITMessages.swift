/// The messages of activity files, field by field from the FIT profile (number, base type,
/// scale): record, lap, session, event, device_info and the developer-data pair.
public enum FITMessages {
    /// The developer field every record carries with ``FITWriteOptions/developerFields`` (field 0 of
    /// developer 0: a uint16 "Form Power" in watts, as Stryd's app writes one).
    public static let developerField = FITDeveloperFieldDefinition(number: 0, size: 2, developerIndex: 0)

    /// developer_data_id (index 0) and the field_description of ``developerField``.
    public static func developerDescription(into encoder: inout FITEncoder) {
        encoder.write(FITMessage(FITGlobal.developerDataId, [
            FITFieldValue(definition: FITFieldDefinition(0, .byte, size: 16), value: .bytes(Array(0..<16))),
            FITFieldValue(definition: FITFieldDefinition(1, .byte, size: 16), value: .bytes(Array(16..<32))),
            .field(2, .uint16, Int64(FITManufacturer.stryd)), .field(3, .uint8, 0), .field(4, .uint32, 1_000),
        ]), local: 6)
        encoder.write(FITMessage(FITGlobal.fieldDescription, [
            .field(0, .uint8, 0), .field(1, .uint8, Int64(developerField.number)), .field(2, .uint8, Int64(FITBaseType.uint16.number)),
            FITFieldValue(definition: FITFieldDefinition(3, .string, size: 16), value: .text("Form Power")),
            FITFieldValue(definition: FITFieldDefinition(8, .string, size: 8), value: .text("Watts")),
        ]), local: 7)
    }

    /// device_info of the recording device.
    public static func deviceInfo(time: Int64, _ fileId: FITFileId) -> FITMessage {
        FITMessage(FITGlobal.deviceInfo, [
            .field(253, .uint32, fitTime(time)), .field(0, .uint8, 0), .field(2, .uint16, Int64(fileId.manufacturer)),
            .field(3, .uint32z, Int64(fileId.serialNumber)), .field(4, .uint16, Int64(fileId.product)), .field(5, .uint16, 1020),
        ])
    }

    /// event: timer (0) start (0) or stop_all (4).
    public static func timerEvent(time: Int64, start: Bool) -> FITMessage {
        FITMessage(FITGlobal.event, [
            .field(253, .uint32, fitTime(time)), .field(0, .enumeration, 0), .field(1, .enumeration, start ? 0 : 4),
            .field(4, .uint8, 0),
        ])
    }

    /// A record message; absent values are left out, or written invalid with `absentAsInvalid`.
    public static func record(_ record: FITRecord, _ options: FITWriteOptions) -> FITMessage {
        var fields: [FITFieldValue] = [.field(253, .uint32, fitTime(record.time))]
        func add(_ number: UInt8, _ type: FITBaseType, _ value: Int64?) {
            if value != nil || options.absentAsInvalid { fields.append(.field(number, type, value)) }
        }
        add(0, .sint32, record.latitude.map(Int64.init))
        add(1, .sint32, record.longitude.map(Int64.init))
        if options.enhancedFields {
            add(78, .uint32, scaled(record.altitudeMeters, 5, offset: 500))
        } else {
            add(2, .uint16, scaled(record.altitudeMeters, 5, offset: 500))
        }
        add(3, .uint8, record.heartRate.map(Int64.init))
        add(4, .uint8, record.cadence.map(Int64.init))
        add(5, .uint32, scaled(record.distanceMeters, 100))
        add(options.enhancedFields ? 73 : 6, options.enhancedFields ? .uint32 : .uint16, scaled(record.speedMetersPerSecond, 1000))
        add(7, .uint16, record.powerWatts.map(Int64.init))
        if let speed = record.compressedSpeedCentimeters, let distance = record.compressedDistanceSixteenths {
            // 12 bits of speed (1/100 m/s), then 12 bits of the distance total modulo 4096 (1/16 m).
            let packed = (speed & 0xFFF) | (distance & 0xFFF) << 12
            fields.append(FITFieldValue(definition: FITFieldDefinition(8, .byte, size: 3),
                                        value: .bytes([UInt8(packed & 0xFF), UInt8((packed >> 8) & 0xFF), UInt8(packed >> 16)])))
        }
        var message = FITMessage(FITGlobal.record, fields)
        if options.developerFields {
            let value = record.developerValue ?? 0xFFFF
            message.developerFields = [(developerField, [UInt8(value & 0xFF), UInt8(value >> 8)])]
        }
        return message
    }

    /// A session (18) or lap (19) message.
    public static func summary(_ summary: FITSummary, isSession: Bool, _ options: FITWriteOptions) -> FITMessage {
        var fields: [FITFieldValue] = [
            .field(253, .uint32, fitTime(summary.end)), .field(0, .enumeration, isSession ? 8 : 9), .field(1, .enumeration, 1),
            .field(2, .uint32, fitTime(summary.start)),
        ]
        func add(_ number: UInt8, _ type: FITBaseType, _ value: Int64?) {
            if value != nil || options.absentAsInvalid { fields.append(.field(number, type, value)) }
        }
        if isSession {
            fields += [.field(5, .enumeration, Int64(summary.sport.sport)), .field(6, .enumeration, Int64(summary.sport.subSport))]
        }
        add(7, .uint32, scaled(summary.elapsedSeconds, 1000))
        add(8, .uint32, scaled(summary.timerSeconds, 1000))
        add(9, .uint32, scaled(summary.distanceMeters, 100))
        add(11, .uint16, summary.calories.map(Int64.init))
        add(isSession ? 16 : 15, .uint8, summary.avgHeartRate.map(Int64.init))
        add(isSession ? 17 : 16, .uint8, summary.maxHeartRate.map(Int64.init))
        add(isSession ? 59 : 52, .uint32, scaled(summary.movingSeconds, 1000))
        return FITMessage(isSession ? FITGlobal.session : FITGlobal.lap, fields)
    }
}
