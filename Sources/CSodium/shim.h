// libsodium: random bytes, keyed hashing (MACs) and constant-time comparison.
#ifndef SECTIONAL_CSODIUM_SHIM_H
#define SECTIONAL_CSODIUM_SHIM_H

#include <sodium.h>

#endif
