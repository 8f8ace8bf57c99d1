#ifndef LOGBOOK_CSODIUM_SHIM_H
#define LOGBOOK_CSODIUM_SHIM_H
// libsodium's C API, for the Sodium module only (see Sources/Sodium): the one place Logbook's
// cryptography comes from.
#include <sodium.h>
#endif
