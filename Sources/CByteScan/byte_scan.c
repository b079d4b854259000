#define _GNU_SOURCE
#include "CByteScan.h"

#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

/// The first place from `place` where `needle` (`length` bytes) is in `haystack` (`count` bytes), place by place:
/// the end a block cannot reach.
static const void *find_literal_from(const unsigned char *haystack, size_t count, const unsigned char *needle, size_t length,
                                     size_t place) {
    for (; place + length <= count; place++) {
        if (haystack[place] == needle[0] && haystack[place + length - 1] == needle[length - 1] &&
            memcmp(haystack + place, needle, length) == 0) return haystack + place;
    }
    return NULL;
}

/// Of the places `candidates` marks (bit i: `place + i`, where the needle's first and last bytes are), the first
/// where the rest of the needle is too; NULL for none.
static inline const void *first_candidate(const unsigned char *haystack, size_t place, unsigned candidates,
                                          const unsigned char *needle, size_t length) {
    while (candidates != 0) {
        const unsigned bit = (unsigned)__builtin_ctz(candidates);
        if (length <= 2 || memcmp(haystack + place + bit + 1, needle + 1, length - 2) == 0) return haystack + place + bit;
        candidates &= candidates - 1;
    }
    return NULL;
}

/// The places where `needle`'s first byte is at `place` and its last byte at `place + length - 1`, 32 at a time
/// (W. Mula's SIMD-friendly search: two bytes far apart rule out nearly every place at once), the rest of
/// `needle` compared at each; then place by place at the end.
__attribute__((target("avx2")))
static const void *find_literal_avx2(const unsigned char *haystack, size_t count, const unsigned char *needle, size_t length) {
    const __m256i first = _mm256_set1_epi8((char)needle[0]);
    const __m256i last = _mm256_set1_epi8((char)needle[length - 1]);
    size_t place = 0;
    for (; place + length - 1 + 32 <= count; place += 32) {
        const __m256i starts = _mm256_loadu_si256((const __m256i *)(haystack + place));
        const __m256i ends = _mm256_loadu_si256((const __m256i *)(haystack + place + length - 1));
        const unsigned candidates = (unsigned)_mm256_movemask_epi8(_mm256_and_si256(_mm256_cmpeq_epi8(starts, first), _mm256_cmpeq_epi8(ends, last)));
        const void *found = first_candidate(haystack, place, candidates, needle, length);
        if (found != NULL) return found;
    }
    return find_literal_from(haystack, count, needle, length, place);
}

/// The same sixteen at a time with SSE2, which every x86-64 has.
static const void *find_literal_sse2(const unsigned char *haystack, size_t count, const unsigned char *needle, size_t length) {
    const __m128i first = _mm_set1_epi8((char)needle[0]);
    const __m128i last = _mm_set1_epi8((char)needle[length - 1]);
    size_t place = 0;
    for (; place + length - 1 + 16 <= count; place += 16) {
        const __m128i starts = _mm_loadu_si128((const __m128i *)(haystack + place));
        const __m128i ends = _mm_loadu_si128((const __m128i *)(haystack + place + length - 1));
        const unsigned candidates = (unsigned)_mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(starts, first), _mm_cmpeq_epi8(ends, last)));
        const void *found = first_candidate(haystack, place, candidates, needle, length);
        if (found != NULL) return found;
    }
    return find_literal_from(haystack, count, needle, length, place);
}
#endif

const void *uti_find_literal(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length) {
    if (needle_length == 0) return haystack;
    if (haystack == NULL || needle == NULL || needle_length > haystack_length) return NULL;
    if (needle_length == 1) return memchr(haystack, *(const unsigned char *)needle, haystack_length);
#if defined(__x86_64__) || defined(__i386__)
    if (__builtin_cpu_supports("avx2")) return find_literal_avx2(haystack, haystack_length, needle, needle_length);
    return find_literal_sse2(haystack, haystack_length, needle, needle_length);
#else
    return memmem(haystack, haystack_length, needle, needle_length);
#endif
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

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/// Whether `byte` is a C0 control character that text is not laid out with (tab, line feed, carriage return, form
/// feed, escape and backspace are).
static int is_counted_control(unsigned char byte) {
    return byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D && byte != 0x0C && byte != 0x1B && byte != 0x08;
}

#if defined(__x86_64__) || defined(__i386__)
/// `uti_scan_text`'s blocks 32 bytes at a time with AVX2: the bytes up to the last whole block, `*place` then
/// where the rest starts; -1 at a NUL.
__attribute__((target("avx2")))
static int scan_text_avx2(const unsigned char *bytes, size_t length, size_t *place, size_t *counted, int *high) {
    const __m256i space = _mm256_set1_epi8(0x20);
    const __m256i zero = _mm256_setzero_si256();
    size_t at = *place, found = 0;
    int seen = 0;
    for (; at + 32 <= length; at += 32) {
        const __m256i block = _mm256_loadu_si256((const __m256i *)(bytes + at));
        const unsigned highs = (unsigned)_mm256_movemask_epi8(block);
        const unsigned low = (unsigned)_mm256_movemask_epi8(_mm256_cmpgt_epi8(space, block)) & ~highs;
        seen |= highs != 0;
        if (low == 0) continue;
        if (_mm256_movemask_epi8(_mm256_cmpeq_epi8(block, zero)) != 0) return -1;
        const __m256i layout = _mm256_or_si256(
            _mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(block, _mm256_set1_epi8(0x09)), _mm256_cmpeq_epi8(block, _mm256_set1_epi8(0x0A))),
                            _mm256_or_si256(_mm256_cmpeq_epi8(block, _mm256_set1_epi8(0x0D)), _mm256_cmpeq_epi8(block, _mm256_set1_epi8(0x0C)))),
            _mm256_or_si256(_mm256_cmpeq_epi8(block, _mm256_set1_epi8(0x1B)), _mm256_cmpeq_epi8(block, _mm256_set1_epi8(0x08))));
        found += (size_t)__builtin_popcount(low & ~(unsigned)_mm256_movemask_epi8(layout));
    }
    *place = at;
    *counted += found;
    *high |= seen;
    return 0;
}
#endif

int uti_scan_text(const unsigned char *bytes, size_t length, size_t *controls, int *high_bit) {
    size_t counted = 0;
    int high = 0;
    size_t place = 0;
    if (bytes == NULL) length = 0;
#if defined(__x86_64__) || defined(__i386__)
    if (__builtin_cpu_supports("avx2") && scan_text_avx2(bytes, length, &place, &counted, &high) != 0) return -1;
#endif
#if defined(__SSE2__)
    const __m128i space = _mm_set1_epi8(0x20);
    const __m128i zero = _mm_setzero_si128();
    for (; place + 16 <= length; place += 16) {
        const __m128i block = _mm_loadu_si128((const __m128i *)(bytes + place));
        // High bytes are negative to the signed comparison: below 0x20 means a C0 byte only once they are left out.
        const int highs = _mm_movemask_epi8(block);
        const int low = _mm_movemask_epi8(_mm_cmplt_epi8(block, space)) & ~highs;
        high |= highs != 0;
        if (low == 0) continue;
        if (_mm_movemask_epi8(_mm_cmpeq_epi8(block, zero)) != 0) return -1;
        const __m128i layout = _mm_or_si128(
            _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(block, _mm_set1_epi8(0x09)), _mm_cmpeq_epi8(block, _mm_set1_epi8(0x0A))),
                         _mm_or_si128(_mm_cmpeq_epi8(block, _mm_set1_epi8(0x0D)), _mm_cmpeq_epi8(block, _mm_set1_epi8(0x0C)))),
            _mm_or_si128(_mm_cmpeq_epi8(block, _mm_set1_epi8(0x1B)), _mm_cmpeq_epi8(block, _mm_set1_epi8(0x08))));
        counted += (size_t)__builtin_popcount((unsigned)(low & ~_mm_movemask_epi8(layout)));
    }
#endif
    for (; place < length; place++) {
        const unsigned char byte = bytes[place];
        if (byte == 0) return -1;
        counted += (size_t)is_counted_control(byte);
        high |= byte >= 0x80;
    }
    *controls = counted;
    *high_bit = high;
    return 0;
}

#include <stdint.h>

static inline unsigned pair_at(const unsigned char *bytes, size_t place) {
    return (unsigned)bytes[place] | (unsigned)bytes[place + 1] << 8;
}

static inline uint32_t key_at(const unsigned char *bytes, size_t place) {
    return (uint32_t)bytes[place] | (uint32_t)bytes[place + 1] << 8 | (uint32_t)bytes[place + 2] << 16 |
           (uint32_t)bytes[place + 3] << 24;
}

/// The keys that may hold the pair at `place` at the places in them `offsets` has a bit for (0, 1, 2) whose hash
/// has its bit: their starts, to `starts`.
static inline size_t pair_keys(const unsigned char *bytes, size_t count, size_t place, unsigned offsets,
                               const uint64_t *hashed, unsigned hash_bits, size_t *starts, size_t written) {
    for (unsigned offset = 0; offset < 3; offset++) {
        if (!(offsets & (1u << offset)) || place < offset) continue;
        const size_t start = place - offset;
        if (start + 4 > count) continue;
        const uint32_t hash = (key_at(bytes, start) * 0x9E3779B1u) >> (32 - hash_bits);
        if (hashed[hash >> 6] & ((uint64_t)1 << (hash & 63))) starts[written++] = start;
    }
    return written;
}

/// The byte of the pair at `place` in `present` (8 KiB, by the pair's thirteen-bit hash).
static inline unsigned pair_byte(const unsigned char *present, const unsigned char *bytes, size_t place) {
    return present[uti_pair_slot(pair_at(bytes, place))];
}

size_t uti_pair_scan(const unsigned char *bytes, size_t count, size_t index, const unsigned char *present,
                     const uint64_t *hashed, unsigned hash_bits, size_t *starts, size_t capacity, size_t *next) {
    size_t written = 0;
    if (bytes == NULL || capacity < 3) {
        *next = count;
        return 0;
    }
    // Eight places a round, their bytes tested together: most rounds have none.
    while (index + 7 * 3 + 1 < count) {
        const unsigned char *here = bytes + index;
        const unsigned any = pair_byte(present, here, 0) | pair_byte(present, here, 3) | pair_byte(present, here, 6) |
                             pair_byte(present, here, 9) | pair_byte(present, here, 12) | pair_byte(present, here, 15) |
                             pair_byte(present, here, 18) | pair_byte(present, here, 21);
        if (any != 0) {
            // The round's places again (their loads are in the cache): building a byte for each place in every
            // round cost more than this in the few rounds that have one.
            for (size_t place = index; place < index + 24; place += 3) {
                const unsigned offsets = pair_byte(present, bytes, place);
                if (offsets == 0) continue;
                if (capacity - written < 3) {
                    *next = place;
                    return written;
                }
                written = pair_keys(bytes, count, place, offsets, hashed, hash_bits, starts, written);
            }
        }
        index += 24;
    }
    for (; index + 1 < count; index += 3) {
        const unsigned offsets = pair_byte(present, bytes, index);
        if (offsets == 0) continue;
        if (capacity - written < 3) {
            *next = index;
            return written;
        }
        written = pair_keys(bytes, count, index, offsets, hashed, hash_bits, starts, written);
    }
    *next = count;
    return written;
}
