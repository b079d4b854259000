#ifndef UTI_CBYTESCAN_H
#define UTI_CBYTESCAN_H

#include <stddef.h>

/// The C library's `memmem` and `memrchr` (GNU extensions, which Swift's Glibc module leaves out): the first
/// place `needle` occurs in `haystack`, and the last place `byte` does in `bytes`; NULL for none. PRONOM's scans
/// of a file's first 64 KiB for a literal and of its last bytes for a gate's last byte use them.
const void *uti_find_bytes(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length);
const void *uti_find_last_byte(const void *bytes, int byte, size_t length);

#endif
