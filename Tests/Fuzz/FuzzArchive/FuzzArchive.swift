import FuzzSupport
import WorkoutFilesFuzzing

/// libFuzzer's entry for `FuzzArchive` (built by `tools/fuzz` with `-sanitize=fuzzer,address`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    WorkoutFilesFuzz.archive.testOneInput(data, size)
}

/// libFuzzer's driver in a fuzz build; otherwise runs the files or directories named on the command line.
@main
enum Main {
    static func main() { WorkoutFilesFuzz.archive.main(fuzzTestOneInput) }
}
