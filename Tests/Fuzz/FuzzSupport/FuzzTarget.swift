#if LOGBOOK_FUZZING
import CLibFuzzer
#endif
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A property a fuzz target checks that an input broke: a reader answered something other than
/// a value or its own typed error, or what it read did not write back and read again the same.
public struct FuzzFailure: Error, CustomStringConvertible {
    /// What was broken, for the crash report and the test's message.
    public let description: String

    /// A failure saying what was broken.
    public init(_ description: String) { self.description = description }
}

/// One fuzz target: a name (the value of `LOGBOOK_FUZZ_TARGET` that picks it in the fuzz program,
/// and its folders under `Tests/Fuzz/Corpus/` and `Tests/Fuzz/Regressions/`) and the checks it
/// runs on one input. The libFuzzer entry, the replay `main` of a normal build and the regression
/// tests all call ``check`` and nothing else.
public struct FuzzTarget: Sendable {
    /// The target's name, e.g. `FuzzFIT`.
    public let name: String
    /// Runs one input through the reader and checks its properties; a trap inside is a finding too.
    public let check: @Sendable ([UInt8]) throws(FuzzFailure) -> Void

    /// A target named `name` checking inputs with `check`.
    public init(_ name: String, check: @escaping @Sendable ([UInt8]) throws(FuzzFailure) -> Void) {
        self.name = name
        self.check = check
    }

    /// The body of `LLVMFuzzerTestOneInput`: a broken property aborts, so libFuzzer keeps the input.
    public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        do {
            try check(bytes)
        } catch {
            standardError("\(name): \(error.description)")
            abort()
        }
        return 0
    }

    /// The fuzz program's `main` once it has chosen this target: in a fuzz build (`-DLOGBOOK_FUZZING`,
    /// linked with `-sanitize=fuzzer`) libFuzzer's driver with the command line and `entry` (the
    /// program's `LLVMFuzzerTestOneInput`, which calls ``testOneInput(_:_:)`` of this target); in a
    /// normal build ``replay(_:)`` of the files named on the command line.
    public func main(_ entry: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
        #if LOGBOOK_FUZZING
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, entry))
        #else
        replay(Array(CommandLine.arguments.dropFirst()))
        #endif
    }

    /// The `main` of a build without libFuzzer: runs each file named on the command line (or each
    /// file in a directory named there) through ``check``, as libFuzzer runs a crash file.
    public func replay(_ arguments: [String]) -> Never {
        var failed = 0
        var ran = 0
        for path in arguments {
            if access(path, F_OK) != 0 {
                standardError("\(name): no such file or directory: \(path)")
                failed += 1
            }
            for file in Self.files(at: path) {
                guard let bytes = Self.read(file) else {
                    standardError("\(name): cannot read \(file)")
                    failed += 1
                    continue
                }
                ran += 1
                do {
                    try check(bytes)
                } catch {
                    standardError("\(name): \(file): \(error.description)")
                    failed += 1
                }
            }
        }
        print("\(name): \(ran) inputs, \(failed) failed")
        exit(failed == 0 ? 0 : 1)
    }

    /// Runs every saved input of this target — `Regressions/<name>/` and `Corpus/<name>/` under
    /// `root` (the `Tests/Fuzz` folder) — through ``check``, as the normal test suites do: how many
    /// ran, and each one that failed, with why.
    public func replaySavedInputs(under root: String) -> (ran: Int, failures: [String]) {
        var ran = 0
        var failures: [String] = []
        for folder in ["Regressions", "Corpus"] {
            for file in Self.files(at: "\(root)/\(folder)/\(name)") {
                ran += 1
                guard let bytes = Self.read(file) else {
                    failures.append("\(file): cannot be read")
                    continue
                }
                do {
                    try check(bytes)
                } catch {
                    failures.append("\(file): \(error.description)")
                }
            }
        }
        return (ran, failures)
    }

    /// `path` itself, or the regular files directly inside it when it is a directory, sorted;
    /// nothing when there is nothing at `path`.
    public static func files(at path: String) -> [String] {
        guard access(path, F_OK) == 0 else { return [] }
        guard let directory = opendir(path) else { return [path] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name.hasPrefix(".") { continue }
            names.append(path + "/" + name)
        }
        return names.sorted()
    }

    /// The bytes of the file at `path`, or nil if it cannot be read.
    public static func read(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let got = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if got == 0 { break }
            bytes.append(contentsOf: chunk[0..<got])
        }
        return ferror(file) == 0 ? bytes : nil
    }
}

/// Writes `line` and a newline to standard error.
func standardError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// Checks in the style of a test's `#expect`, for the targets' properties.
public enum FuzzCheck {
    /// Throws a ``FuzzFailure`` saying `message` unless `condition` holds.
    @inlinable
    public static func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws(FuzzFailure) {
        if !condition { throw FuzzFailure(message()) }
    }
}
