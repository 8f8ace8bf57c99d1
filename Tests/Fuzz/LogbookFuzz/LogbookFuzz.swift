import FuzzSupport
import LogbookFuzzing
import PostgresFuzzing
import WebhookFuzzing
import WorkoutFilesFuzzing

/// Every fuzz target, one program: `LOGBOOK_FUZZ_TARGET` (e.g. `FuzzQuery`) names the one a run
/// checks. A target's name is also its folder in `Tests/Fuzz/Corpus/` and `Tests/Fuzz/Regressions/`.
let fuzzTargets = FuzzTargets(
    WorkoutFilesFuzz.targets + [
        WireFuzz.wireEvent, WireFuzz.binaryPayload, RequestFuzz.commandBody, RequestFuzz.query,
        StoredRecordFuzz.logRecord, StoredRecordFuzz.readModelRecord, BackupRowsFuzz.rows,
        PostgresRowFuzz.row, WebhookFuzz.url, WebhookFuzz.answer,
    ])

/// The target this run checks, chosen once when the program starts (a missing or unknown name
/// ends the program there, listing the names).
let chosenTarget = fuzzTargets.chosen(by: "LogbookFuzz")

/// libFuzzer's entry (the program is built by `tools/fuzz` with `-sanitize=fuzzer,address`): one
/// input through the chosen target's checks.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    chosenTarget.testOneInput(data, size)
}

/// Chooses the target, then runs libFuzzer's driver in a fuzz build; otherwise runs the files or
/// directories named on the command line through the chosen target.
@main
enum Main {
    static func main() { chosenTarget.main(fuzzTestOneInput) }
}
