import FuzzSupport
import WebhookFuzzing

/// libFuzzer's entry for `FuzzWebhookURL` (built by `tools/fuzz` with `-sanitize=fuzzer,address`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    WebhookFuzz.url.testOneInput(data, size)
}

/// libFuzzer's driver in a fuzz build; otherwise runs the files or directories named on the command line.
@main
enum Main {
    static func main() { WebhookFuzz.url.main(fuzzTestOneInput) }
}
