#define _GNU_SOURCE
#include "CByteScan.h"

#include <string.h>

const void *uti_find_bytes(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length) {
    return memmem(haystack, haystack_length, needle, needle_length);
}

const void *uti_find_last_byte(const void *bytes, int byte, size_t length) {
    return memrchr(bytes, byte, length);
}
