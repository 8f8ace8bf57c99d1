#ifndef LOGBOOK_CZLIB_SHIM_H
#define LOGBOOK_CZLIB_SHIM_H
// zlib's C API, for the Zlib module only (see Sources/Zlib).
#include <zlib.h>

// inflateInit2 is a macro (it passes the header's version and sizeof(z_stream)), which Swift
// cannot call: this is the one thing the shim adds.
static inline int logbook_inflate_init2(z_streamp stream, int window_bits) {
    return inflateInit2(stream, window_bits);
}
#endif
