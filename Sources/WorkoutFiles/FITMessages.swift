/// FIT definition messages and typed, sentinel-aware access to data-message fields.
///
/// Base types (FIT protocol "Base Types"): number in the low 5 bits, size, and the invalid
/// value that stands for "no data" — which this module maps to nil.
enum FITBaseType {
    /// Element size in bytes for a base type number (unknown numbers read as bytes).
    static let sizes: [Int] = [1, 1, 1, 2, 2, 4, 4, 1, 4, 8, 1, 2, 4, 1, 8, 8, 8]

    @inline(__always) static func size(_ baseType: UInt8) -> Int {
        let number = Int(baseType & 0x1F)
        return number < sizes.count ? sizes[number] : 1
    }

    /// Whether the base type is signed.
    @inline(__always) static func isSigned(_ number: Int) -> Bool { number == 1 || number == 3 || number == 5 || number == 14 }
    /// Whether zero is the invalid value (the "z" types).
    @inline(__always) static func isZeroInvalid(_ number: Int) -> Bool { number == 10 || number == 11 || number == 12 || number == 16 }
}

/// One field of a definition: where it sits in the data message and how to read it.
struct FITFieldDefinition: Hashable {
    var number: UInt8
    var size: Int
    var baseType: UInt8
    var offset: Int
}

/// A definition message: how to read the data messages of one local message type.
final class FITDefinition {
    let globalNumber: UInt16
    let bigEndian: Bool
    let fields: [FITFieldDefinition]
    /// Total data-message payload size, developer fields included.
    let dataSize: Int
    /// Field number → index into `fields`, or -1.
    private let slots: [Int16]

    init(globalNumber: UInt16, bigEndian: Bool, fields: [FITFieldDefinition], dataSize: Int) {
        self.globalNumber = globalNumber
        self.bigEndian = bigEndian
        self.fields = fields
        self.dataSize = dataSize
        var slots = [Int16](repeating: -1, count: 256)
        for (index, field) in fields.enumerated() where slots[Int(field.number)] < 0 {
            slots[Int(field.number)] = Int16(index)
        }
        self.slots = slots
    }

    @inline(__always) func field(_ number: UInt8) -> FITFieldDefinition? {
        let slot = slots[Int(number)]
        return slot < 0 ? nil : fields[Int(slot)]
    }
}

/// A data message, valid only inside the decoder's callback.
struct FITMessage {
    let definition: FITDefinition
    let payload: UnsafeRawPointer
    /// Timestamp from field 253 or from a compressed-timestamp header (raw FIT seconds).
    let timestamp: UInt32?

    @inline(__always) var globalNumber: UInt16 { definition.globalNumber }

    /// Unsigned little/big-endian load of `size` bytes at `offset`.
    @inline(__always) private func load(_ offset: Int, _ size: Int) -> UInt64 {
        let big = definition.bigEndian
        switch size {
        case 1:
            return UInt64(payload.load(fromByteOffset: offset, as: UInt8.self))
        case 2:
            let raw = payload.loadUnaligned(fromByteOffset: offset, as: UInt16.self)
            return UInt64(big ? UInt16(bigEndian: raw) : UInt16(littleEndian: raw))
        case 4:
            let raw = payload.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
            return UInt64(big ? UInt32(bigEndian: raw) : UInt32(littleEndian: raw))
        default:
            let raw = payload.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            return big ? UInt64(bigEndian: raw) : UInt64(littleEndian: raw)
        }
    }

    /// First element of an integer field, nil when absent, misaligned or the invalid sentinel.
    func integer(_ number: UInt8) -> Int64? {
        guard let field = definition.field(number) else { return nil }
        let baseNumber = Int(field.baseType & 0x1F)
        let size = FITBaseType.size(field.baseType)
        guard field.size >= size, baseNumber != 7, baseNumber != 8, baseNumber != 9 else { return nil }
        let raw = load(field.offset, size)
        let bits = UInt64(size * 8)
        let allOnes: UInt64 = bits == 64 ? .max : (1 << bits) - 1
        if FITBaseType.isZeroInvalid(baseNumber) {
            return raw == 0 ? nil : Int64(bitPattern: raw)
        }
        if FITBaseType.isSigned(baseNumber) {
            let maxPositive = allOnes >> 1
            if raw == maxPositive { return nil }
            let shift = 64 - bits
            return Int64(bitPattern: raw << shift) >> Int64(shift)
        }
        if raw == allOnes { return nil }
        return Int64(bitPattern: raw)
    }

    /// A numeric field as Double (integer or float base types), unscaled.
    func number(_ number: UInt8) -> Double? {
        guard let field = definition.field(number) else { return nil }
        let baseNumber = Int(field.baseType & 0x1F)
        if baseNumber == 8, field.size >= 4 {
            let raw = UInt32(truncatingIfNeeded: load(field.offset, 4))
            guard raw != 0xFFFF_FFFF else { return nil }
            let value = Double(Float(bitPattern: raw))
            return value.isFinite ? value : nil
        }
        if baseNumber == 9, field.size >= 8 {
            let raw = load(field.offset, 8)
            guard raw != .max else { return nil }
            let value = Double(bitPattern: raw)
            return value.isFinite ? value : nil
        }
        return integer(number).map(Double.init)
    }

    /// `(raw / scale) - offset`, the FIT profile's scaling rule.
    func scaled(_ field: UInt8, scale: Double, offset: Double = 0) -> Double? {
        number(field).map { $0 / scale - offset }
    }

    /// Raw bytes of a field (nil when absent, or every byte is 0xFF for byte arrays).
    func bytes(_ number: UInt8) -> UnsafeRawBufferPointer? {
        guard let field = definition.field(number), field.size > 0 else { return nil }
        let buffer = UnsafeRawBufferPointer(start: payload + field.offset, count: field.size)
        if field.baseType & 0x1F == 13, buffer.allSatisfy({ $0 == 0xFF }) { return nil }
        return buffer
    }

    /// A string field (UTF-8, NUL-terminated), nil when empty.
    func string(_ number: UInt8) -> String? {
        guard let field = definition.field(number), field.baseType & 0x1F == 7 else { return nil }
        let buffer = UnsafeRawBufferPointer(start: payload + field.offset, count: field.size)
        let end = buffer.firstIndex(of: 0) ?? buffer.count
        guard end > 0 else { return nil }
        return String(decoding: buffer[0..<end], as: UTF8.self)
    }
}
