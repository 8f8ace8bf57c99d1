// libFuzzer's driver, as the toolchain's libclang_rt.fuzzer provides it when a program is linked
// with -sanitize=fuzzer. The fuzz targets call it from their own main: SwiftPM names an executable's
// entry point itself on Linux, so libFuzzer's main is never linked.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
