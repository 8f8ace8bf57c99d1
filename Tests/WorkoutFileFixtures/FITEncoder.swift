/// A FIT base type as definitions write it: its number byte (endian-ability bit included) and
/// the size of one element (FIT protocol, "Base Types").
public struct FITBaseType: Sendable, Hashable {
    /// The byte written in a field definition.
    public let number: UInt8
    /// Bytes per element.
    public let size: Int

    public static let enumeration = FITBaseType(number: 0x00, size: 1)
    public static let sint8 = FITBaseType(number: 0x01, size: 1)
    public static let uint8 = FITBaseType(number: 0x02, size: 1)
    public static let sint16 = FITBaseType(number: 0x83, size: 2)
    public static let uint16 = FITBaseType(number: 0x84, size: 2)
    public static let sint32 = FITBaseType(number: 0x85, size: 4)
    public static let uint32 = FITBaseType(number: 0x86, size: 4)
    public static let string = FITBaseType(number: 0x07, size: 1)
    public static let sint64 = FITBaseType(number: 0x8E, size: 8)
    public static let uint64 = FITBaseType(number: 0x8F, size: 8)
    public static let float32 = FITBaseType(number: 0x88, size: 4)
    public static let float64 = FITBaseType(number: 0x89, size: 8)
    public static let uint8z = FITBaseType(number: 0x0A, size: 1)
    public static let uint16z = FITBaseType(number: 0x8B, size: 2)
    public static let uint32z = FITBaseType(number: 0x8C, size: 4)
    public static let byte = FITBaseType(number: 0x0D, size: 1)

    /// One element meaning "no value": the largest positive value for signed types, zero for
    /// the "z" types, all ones otherwise.
    public var invalid: UInt64 {
        switch number & 0x1F {
        case 0x01: 0x7F
        case 0x03: 0x7FFF
        case 0x05: 0x7FFF_FFFF
        case 0x0A, 0x0B, 0x0C: 0
        default: size == 8 ? .max : (1 << UInt64(8 * size)) - 1
        }
    }
}

/// One field of a definition message. `size` may differ from the base type's (arrays, or a
/// misaligned field some devices write, such as one byte declared uint32).
public struct FITFieldDefinition: Sendable, Hashable {
    public var number: UInt8
    public var size: Int
    public var baseType: FITBaseType

    public init(_ number: UInt8, _ baseType: FITBaseType, size: Int? = nil) {
        self.number = number
        self.baseType = baseType
        self.size = size ?? baseType.size
    }
}

/// A developer field of a definition message (its number, size and developer_data_index).
public struct FITDeveloperFieldDefinition: Sendable, Hashable {
    public var number: UInt8
    public var size: Int
    public var developerIndex: UInt8

    public init(number: UInt8, size: Int, developerIndex: UInt8) {
        self.number = number
        self.size = size
        self.developerIndex = developerIndex
    }
}

/// A value to write into a field.
public enum FITValue: Sendable, Hashable {
    /// An integer in the field's byte order (two's complement; only the field's bytes are written).
    case integer(Int64)
    /// The base type's invalid value in every element.
    case invalid
    /// Raw bytes, cut or padded with 0xFF to the field's size.
    case bytes([UInt8])
    /// UTF-8 text, NUL-padded to the field's size.
    case text(String)
    /// A float32 or float64.
    case float(Double)
}

/// A field and its value.
public struct FITFieldValue: Sendable, Hashable {
    public var definition: FITFieldDefinition
    public var value: FITValue

    /// A field of `number` and `type`; nil writes the invalid value.
    public static func field(_ number: UInt8, _ type: FITBaseType, _ value: Int64?) -> FITFieldValue {
        FITFieldValue(definition: FITFieldDefinition(number, type), value: value.map(FITValue.integer) ?? .invalid)
    }

    public init(definition: FITFieldDefinition, value: FITValue) {
        self.definition = definition
        self.value = value
    }
}

/// A data message: its global message number, fields and developer fields (values as bytes).
public struct FITMessage: Sendable, Hashable {
    public var global: UInt16
    public var fields: [FITFieldValue]
    public var developerFields: [(definition: FITDeveloperFieldDefinition, bytes: [UInt8])] {
        get { zip(developerDefinitions, developerValues).map { ($0, $1) } }
        set { developerDefinitions = newValue.map(\.definition); developerValues = newValue.map(\.bytes) }
    }
    private var developerDefinitions: [FITDeveloperFieldDefinition] = []
    private var developerValues: [[UInt8]] = []

    public init(_ global: UInt16, _ fields: [FITFieldValue]) {
        self.global = global
        self.fields = fields
    }

    /// The value of field 253 (the message's timestamp), if it has one.
    public var timestamp: UInt32? {
        guard let field = fields.first(where: { $0.definition.number == 253 }), case .integer(let value) = field.value else { return nil }
        return UInt32(truncatingIfNeeded: value)
    }

    /// The payload bytes for `fields` (which must be this message's fields, in the definition's order).
    func payload(_ fields: [FITFieldValue], bigEndian: Bool) -> [UInt8] {
        var out: [UInt8] = []
        for field in fields {
            let size = field.definition.size, type = field.definition.baseType
            switch field.value {
            case .integer(let value):
                let element = min(size, type.size)
                out.append(integer: UInt64(bitPattern: value), size: element, bigEndian: bigEndian)
                for _ in 0..<((size - element) / max(1, type.size)) { out.append(integer: type.invalid, size: type.size, bigEndian: bigEndian) }
                out += [UInt8](repeating: 0xFF, count: (size - element) % max(1, type.size))
            case .invalid:
                for _ in 0..<(size / type.size) { out.append(integer: type.invalid, size: type.size, bigEndian: bigEndian) }
                out += [UInt8](repeating: 0xFF, count: size % type.size)
            case .bytes(let bytes):
                out += bytes.prefix(size) + [UInt8](repeating: 0xFF, count: max(0, size - bytes.count))
            case .text(let text):
                let utf8 = Array(text.utf8)
                out += utf8.prefix(size) + [UInt8](repeating: 0, count: max(0, size - utf8.count))
            case .float(let value):
                let bits = type.size == 8 ? value.bitPattern : UInt64(Float(value).bitPattern)
                out.append(integer: bits, size: type.size, bigEndian: bigEndian)
            }
        }
        for (definition, bytes) in developerFields {
            out += bytes.prefix(definition.size) + [UInt8](repeating: 0xFF, count: max(0, definition.size - bytes.count))
        }
        return out
    }
}
