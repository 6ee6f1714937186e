// mimalloc: the process's malloc and free, in place of glibc's (HTTPServer's Allocator says why).
#ifndef SECTIONAL_CMIMALLOC_SHIM_H
#define SECTIONAL_CMIMALLOC_SHIM_H

#include <mimalloc.h>

#endif
