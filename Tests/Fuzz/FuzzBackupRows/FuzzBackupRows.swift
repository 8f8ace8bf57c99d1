import FuzzSupport
import LogbookFuzzing

/// libFuzzer's entry for `FuzzBackupRows` (built by `tools/fuzz` with `-sanitize=fuzzer,address`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    BackupRowsFuzz.rows.testOneInput(data, size)
}

/// libFuzzer's driver in a fuzz build; otherwise runs the files or directories named on the command line.
@main
enum Main {
    static func main() { BackupRowsFuzz.rows.main(fuzzTestOneInput) }
}
