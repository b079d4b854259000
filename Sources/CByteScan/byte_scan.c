#define _GNU_SOURCE
#include "CByteScan.h"

#include <string.h>

const void *uti_find_bytes(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length) {
    return memmem(haystack, haystack_length, needle, needle_length);
}

const void *uti_find_last_byte(const void *bytes, int byte, size_t length) {
    return memrchr(bytes, byte, length);
}

const void *uti_find_pair(const void *bytes, size_t length, unsigned char first, unsigned char mask, unsigned char value,
                          int by_second) {
    const unsigned char *start = bytes;
    if (start == NULL || length < 2) return NULL;
    if (by_second) {
        // The second byte by `memchr` (it is `value`: `mask` is 0xFF), then the byte before it.
        size_t place = 1;
        while (place < length) {
            const unsigned char *hit = memchr(start + place, value, length - place);
            if (hit == NULL) return NULL;
            if (hit[-1] == first) return hit - 1;
            place = (size_t)(hit - start) + 1;
        }
        return NULL;
    }
    size_t place = 0;
    while (place + 1 < length) {
        const unsigned char *hit = memchr(start + place, first, length - 1 - place);
        if (hit == NULL) return NULL;
        if ((hit[1] & mask) == value) return hit;
        place = (size_t)(hit - start) + 1;
    }
    return NULL;
}
