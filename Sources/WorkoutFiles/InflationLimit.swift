/// The bound on what one zip entry or gzip member may inflate to, from `ParseOptions`: an
/// absolute ceiling, and a ratio to the compressed bytes read so far (with an allowance, so a
/// small but highly compressible entry passes while a bomb fails within its first megabytes).
struct InflationLimit: Sendable, Hashable {
    var maxBytes: Int64
    var maxRatio: Int64
    var allowance: Int64
    /// The entry or member, for messages ("export.zip/export.xml").
    var entry: String

    init(_ options: ParseOptions, entry: String) {
        maxBytes = max(0, options.maxInflatedBytesPerEntry)
        maxRatio = max(1, options.maxCompressionRatio)
        allowance = max(0, options.compressionRatioAllowanceBytes)
        self.entry = entry
    }

    /// The most output `compressed` bytes may give by the ratio: max(allowance, ratio × compressed).
    func ratioBound(compressed: Int64) -> Int64 {
        let (product, overflow) = max(0, compressed).multipliedReportingOverflow(by: maxRatio)
        return max(allowance, overflow ? .max : product)
    }

    /// Throws `limitExceeded` when `produced` output bytes pass the ceiling or the ratio to `consumed`.
    func check(produced: Int64, consumed: Int64, fileName: String) throws {
        guard produced <= maxBytes else {
            throw WorkoutFileError(code: .limitExceeded, fileName: fileName, byteOffset: consumed,
                                   message: "\(entry) inflates to more than \(maxBytes) bytes (ParseOptions.maxInflatedBytesPerEntry)")
        }
        guard produced <= ratioBound(compressed: consumed) else {
            throw WorkoutFileError(code: .limitExceeded, fileName: fileName, byteOffset: consumed,
                                   message: "\(entry) inflates to \(produced) bytes from \(consumed) compressed bytes, more than "
                                       + "\(maxRatio) times (ParseOptions.maxCompressionRatio): a compression bomb?")
        }
    }

    /// Checks a zip entry by the sizes its directory declares, before a byte is inflated (the
    /// entry's stream then fails if it produces more than it declared).
    func checkDeclared(uncompressed: UInt64, compressed: UInt64, deflated: Bool, fileName: String, offset: Int64) throws {
        guard uncompressed <= UInt64(maxBytes) else {
            throw WorkoutFileError(code: .limitExceeded, fileName: fileName, byteOffset: offset,
                                   message: "\(entry) declares \(uncompressed) bytes; at most \(maxBytes) are read (ParseOptions.maxInflatedBytesPerEntry)")
        }
        let compressedBytes = Int64(exactly: compressed) ?? .max
        guard !deflated || uncompressed <= UInt64(ratioBound(compressed: compressedBytes)) else {
            throw WorkoutFileError(code: .limitExceeded, fileName: fileName, byteOffset: offset,
                                   message: "\(entry) declares \(uncompressed) bytes from \(compressed) compressed bytes, more than "
                                       + "\(maxRatio) times (ParseOptions.maxCompressionRatio): a compression bomb?")
        }
    }
}
