import Foundation
import Testing
import WorkoutFileFixtures
@testable import WorkoutFiles

/// Damaged FIT files — truncations, bad header and file CRCs, undefined local messages, corrupt
/// and short chained headers, impossible architecture and versions — are refused with the error
/// code and the byte offset of the damage, whatever the encoding of the file around it.
@Suite struct FITDamageTests {
    static let encodings = ["plain", "12-byte header", "big-endian", "compressed timestamps", "developer fields", "everything"]

    @Test(arguments: encodings)
    func damageIsFoundWhereItIs(_ variant: String) throws {
        let options = FITActivityTests.options(variant)
        let base = SampleFIT.small.encoded(options)
        let other = SampleFIT.run.encoded(options)
        let damaged = FITDamage.all(base, chainedWith: other, stem: "small")
        #expect(damaged.count >= 13)
        for file in damaged {
            let error = workoutError { _ = try FITParser().parse(bytes: file.bytes, fileName: file.name) }
            #expect(error?.code.rawValue == file.code, "\(variant), \(file.damage): \(String(describing: error))")
            #expect(error?.byteOffset == file.offset, "\(variant), \(file.damage): \(String(describing: error))")
            #expect(error?.fileName == file.name)
        }
    }

    @Test func errorsNameTheByte() throws {
        let base = SampleFIT.small.encoded()
        let eof = try #require(FITDamage.all(base, chainedWith: base, stem: "a").first { $0.name == "a-unexpected-eof.fit" })
        let error = try #require(workoutError { _ = try FITParser().parse(bytes: eof.bytes, fileName: eof.name) })
        #expect(error.description.hasPrefix("a-unexpected-eof.fit: truncated at byte \(base.bytes.count - 3): "))
    }
}
