#ifndef LOGBOOK_CLMDB_SHIM_H
#define LOGBOOK_CLMDB_SHIM_H
// The whole of liblmdb's C API, for the LMDB module only (see Sources/LMDB).
#include <lmdb.h>
#endif
