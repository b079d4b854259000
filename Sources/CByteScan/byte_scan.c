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

#if defined(__x86_64__) || defined(__i386__)
/// `uti_find_pair` 32 places at a time with AVX2: the first byte compared at each place and the second, masked,
/// at the place after, together; the places the blocks cannot reach, one by one.
__attribute__((target("avx2")))
static const void *find_pair_avx2(const unsigned char *start, size_t length, unsigned char first, unsigned char mask,
                                  unsigned char value) {
    const __m256i firsts = _mm256_set1_epi8((char)first), masks = _mm256_set1_epi8((char)mask), values = _mm256_set1_epi8((char)value);
    size_t place = 0;
    // A block's second bytes end one past its first ones.
    for (; place + 33 <= length; place += 32) {
        const __m256i here = _mm256_loadu_si256((const __m256i *)(const void *)(start + place));
        const __m256i next = _mm256_loadu_si256((const __m256i *)(const void *)(start + place + 1));
        const unsigned found = (unsigned)_mm256_movemask_epi8(
            _mm256_and_si256(_mm256_cmpeq_epi8(here, firsts), _mm256_cmpeq_epi8(_mm256_and_si256(next, masks), values)));
        if (found != 0) return start + place + __builtin_ctz(found);
    }
    for (; place + 1 < length; place++) {
        if (start[place] == first && (start[place + 1] & mask) == value) return start + place;
    }
    return NULL;
}
#endif

const void *uti_find_pair(const void *bytes, size_t length, unsigned char first, unsigned char mask, unsigned char value,
                          int by_second, int portable) {
    const unsigned char *start = bytes;
    if (start == NULL || length < 2) return NULL;
    (void)portable;
#if defined(__x86_64__) || defined(__i386__)
    if (!portable && __builtin_cpu_supports("avx2")) return find_pair_avx2(start, length, first, mask, value);
#endif
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

static inline uint32_t key_at(const unsigned char *bytes, size_t place) {
    return (uint32_t)bytes[place] | (uint32_t)bytes[place + 1] << 8 | (uint32_t)bytes[place + 2] << 16 |
           (uint32_t)bytes[place + 3] << 24;
}

/// Slot `slot`'s bit in `present`.
static inline unsigned slot_bit(const uint64_t *present, unsigned slot) {
    return (unsigned)(present[slot >> 6] >> (slot & 63)) & 1u;
}

/// Whether the three bytes at `place` (four readable there) have their bit in `present`.
static inline unsigned triple_bit(const uint64_t *present, const unsigned char *bytes, size_t place) {
    return slot_bit(present, uti_triple_slot(key_at(bytes, place)));
}

/// The key's possible start `start`, to `starts`, where its four bytes lie within `count` and their hash has its
/// bit in `hashed`.
static inline size_t key_start(const unsigned char *bytes, size_t count, size_t start, const uint64_t *hashed,
                               unsigned hash_bits, size_t *starts, size_t written) {
    if (start + 4 > count) return written;
    if (slot_bit(hashed, uti_key_hash(key_at(bytes, start), hash_bits))) starts[written++] = start;
    return written;
}

/// The keys' possible starts at `place` and one before it, to `starts`.
static inline size_t place_keys(const unsigned char *bytes, size_t count, size_t place, const uint64_t *hashed,
                                unsigned hash_bits, size_t *starts, size_t written) {
    written = key_start(bytes, count, place, hashed, hash_bits, starts, written);
    if (place > 0) written = key_start(bytes, count, place - 1, hashed, hash_bits, starts, written);
    return written;
}

#if defined(__x86_64__) || defined(__i386__)
/// `uti_triple_scan`'s rounds eight places (sixteen bytes) at a time with AVX2: each place's three bytes gathered
/// into a lane, hashed in all lanes at once, their bits fetched from `present` in one gather (its words read as
/// 32-bit ones: x86 is little-endian). `*index` is where the scan stopped (at the first of the places the bytes
/// left for the rest, or at a place `starts` had no room for: `*full` then set).
__attribute__((target("avx2")))
static size_t triple_scan_avx2(const unsigned char *bytes, size_t count, size_t *index, const uint64_t *present,
                               const uint64_t *hashed, unsigned hash_bits, size_t *starts, size_t capacity, int *full) {
    // Lane k of each half: bytes 2k, 2k + 1, 2k + 2 of its sixteen, the top byte zero.
    const __m256i spread = _mm256_setr_epi8(0, 1, 2, -128, 2, 3, 4, -128, 4, 5, 6, -128, 6, 7, 8, -128,
                                            0, 1, 2, -128, 2, 3, 4, -128, 4, 5, 6, -128, 6, 7, 8, -128);
    const __m256i golden = _mm256_set1_epi32((int)0x9E3779B1u);
    const __m256i low5 = _mm256_set1_epi32(31), one = _mm256_set1_epi32(1);
    const int *words = (const int *)(const void *)present;
    size_t written = 0, at = *index;
    // The second half's load, eight bytes on, ends at `at + 24`.
    for (; at + 24 <= count; at += 16) {
        const __m256i both = _mm256_loadu2_m128i((const __m128i *)(const void *)(bytes + at + 8), (const __m128i *)(const void *)(bytes + at));
        const __m256i threes = _mm256_shuffle_epi8(both, spread);
        const __m256i slots = _mm256_srli_epi32(_mm256_mullo_epi32(threes, golden), 16);
        const __m256i gathered = _mm256_i32gather_epi32(words, _mm256_srli_epi32(slots, 5), 4);
        const __m256i bits = _mm256_and_si256(_mm256_srlv_epi32(gathered, _mm256_and_si256(slots, low5)), one);
        if (_mm256_testz_si256(bits, bits)) continue;
        unsigned lanes = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_slli_epi32(bits, 31)));
        while (lanes != 0) {
            const size_t place = at + 2 * (size_t)__builtin_ctz(lanes);
            if (capacity - written < 2) {
                *index = place;
                *full = 1;
                return written;
            }
            written = place_keys(bytes, count, place, hashed, hash_bits, starts, written);
            lanes &= lanes - 1;
        }
    }
    *index = at;
    return written;
}
#endif

size_t uti_triple_scan(const unsigned char *bytes, size_t count, size_t index, const uint64_t *present,
                       const uint64_t *hashed, unsigned hash_bits, size_t *starts, size_t capacity, size_t *next, int portable) {
    size_t written = 0;
    if (bytes == NULL || capacity < 2) {
        *next = count;
        return 0;
    }
    index &= ~(size_t)1;
    (void)portable;
#if defined(__x86_64__) || defined(__i386__)
    if (!portable && __builtin_cpu_supports("avx2")) {
        int full = 0;
        written = triple_scan_avx2(bytes, count, &index, present, hashed, hash_bits, starts, capacity, &full);
        if (full) {
            *next = index;
            return written;
        }
    }
#endif
    // Eight places a round, sixteen bytes, their bits tested together: most rounds have none. The last place reads
    // four bytes, so a round needs eighteen.
    while (index + 18 <= count) {
        const unsigned char *here = bytes + index;
        const unsigned any = triple_bit(present, here, 0) | triple_bit(present, here, 2) | triple_bit(present, here, 4) |
                             triple_bit(present, here, 6) | triple_bit(present, here, 8) | triple_bit(present, here, 10) |
                             triple_bit(present, here, 12) | triple_bit(present, here, 14);
        if (any != 0) {
            // The round's places again (their words are in the cache).
            for (size_t place = index; place < index + 16; place += 2) {
                if (!triple_bit(present, bytes, place)) continue;
                if (capacity - written < 2) {
                    *next = place;
                    return written;
                }
                written = place_keys(bytes, count, place, hashed, hash_bits, starts, written);
            }
        }
        index += 16;
    }
    // The last places, whose three bytes lie within `count` but not always a fourth.
    for (; index + 3 <= count; index += 2) {
        const uint32_t triple = (uint32_t)bytes[index] | (uint32_t)bytes[index + 1] << 8 | (uint32_t)bytes[index + 2] << 16;
        if (!slot_bit(present, uti_triple_slot(triple))) continue;
        if (capacity - written < 2) {
            *next = index;
            return written;
        }
        written = place_keys(bytes, count, index, hashed, hash_bits, starts, written);
    }
    *next = count;
    return written;
}

/// A window's move in `uti_shift_scan` from `end`: by its last three bytes' shift, by one where that is 0 (the end
/// then written to `ends`); where it ends next.
static inline size_t shift_step(const unsigned char *bytes, size_t end, const unsigned char *shifts, unsigned hash_bits,
                                size_t *ends, size_t *written) {
    const unsigned shift = shifts[uti_shift_slot(key_at(bytes, end - 3) >> 8, hash_bits)];
    if (shift != 0) return end + shift;
    ends[(*written)++] = end;
    return end + 1;
}

size_t uti_shift_scan(const unsigned char *bytes, size_t first, size_t last, const unsigned char *shifts, unsigned hash_bits,
                      size_t *ends) {
    size_t written = 0;
    if (bytes == NULL || first < 3 || last < first) return 0;
    // Four windows, each from the start of a quarter of the ends: a window's next place waits on its shift's load,
    // and four such chains run side by side where one would wait.
    const size_t quarter = (last - first + 1) / 4;
    if (quarter >= 64) {
        size_t end0 = first, end1 = first + quarter, end2 = first + 2 * quarter, end3 = first + 3 * quarter;
        const size_t stop0 = end1, stop1 = end2, stop2 = end3, stop3 = last + 1;
        while (end0 < stop0 && end1 < stop1 && end2 < stop2 && end3 < stop3) {
            end0 = shift_step(bytes, end0, shifts, hash_bits, ends, &written);
            end1 = shift_step(bytes, end1, shifts, hash_bits, ends, &written);
            end2 = shift_step(bytes, end2, shifts, hash_bits, ends, &written);
            end3 = shift_step(bytes, end3, shifts, hash_bits, ends, &written);
        }
        while (end0 < stop0) end0 = shift_step(bytes, end0, shifts, hash_bits, ends, &written);
        while (end1 < stop1) end1 = shift_step(bytes, end1, shifts, hash_bits, ends, &written);
        while (end2 < stop2) end2 = shift_step(bytes, end2, shifts, hash_bits, ends, &written);
        while (end3 < stop3) end3 = shift_step(bytes, end3, shifts, hash_bits, ends, &written);
        return written;
    }
    size_t end = first;
    while (end <= last) end = shift_step(bytes, end, shifts, hash_bits, ends, &written);
    return written;
}
