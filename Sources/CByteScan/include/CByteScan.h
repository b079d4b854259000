#ifndef UTI_CBYTESCAN_H
#define UTI_CBYTESCAN_H

#include <stddef.h>
#include <stdint.h>

/// The last place `byte` is in `bytes` (the C library's `memrchr`, a GNU extension Swift's Glibc module leaves out);
/// NULL for none. PRONOM's scans of a file's last bytes for a gate's last byte use it.
const void *uti_find_last_byte(const void *bytes, int byte, size_t length);

/// The first place `needle` (`needle_length` bytes) occurs in `haystack`, as `memmem` finds it; NULL for none
/// (`haystack` for an empty needle). On x86 the places where the needle's first and last bytes both are, 32 at a
/// time with AVX2 where the processor has it (16 with SSE2 otherwise), the rest compared at each: four times
/// `memmem`'s speed on text, where a search by the first byte stops at every one of a frequent byte. What
/// shared-mime-info's searched rules, PRONOM's floating literals and Linguist's literals look for.
const void *uti_find_literal(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length);

/// The first place in `bytes` (`length` of them) holding byte `first` followed by a byte that is `value` where
/// `mask` has bits (`mask` 0xFF: exactly `value`); NULL for none. Both bytes lie within `length`. With AVX2, where
/// the processor has it, both bytes are compared at 32 places at a time; elsewhere (or `portable` not 0, for the
/// tests) the C library's `memchr` finds the first byte (`by_second`: the second, `mask` then 0xFF, the less likely
/// one), and the other is compared here, without a return to the caller at each place the one byte alone is.
/// PRONOM's short literals (`v ` of Wavefront OBJ, `00 32` of a UTF-16 text, MPEG audio's frame headers), which a
/// search by one byte stopped at every `v` of every text, every `2`, every `FF` of compressed data, and where
/// `memchr` still stopped.
const void *uti_find_pair(const void *bytes, size_t length, unsigned char first, unsigned char mask, unsigned char value,
                          int by_second, int portable);

/// Reads `bytes` (`length` of them) as text: counts the C0 control characters into `controls` (tab, line feed,
/// carriage return, form feed, escape and backspace, which text is laid out with, are not counted) and sets
/// `high_bit` to whether a byte has its high bit set; returns 0, or -1 at a NUL (the outputs then untouched).
/// Thirty-two bytes at a time with AVX2 where the processor has it, sixteen with SSE2, byte by byte elsewhere.
int uti_scan_text(const unsigned char *bytes, size_t length, size_t *controls, int *high_bit);

/// Three bytes' slot in the near literals' filter: their sixteen-bit hash, the three read little-endian (`triple`'s
/// high byte is ignored). The one definition, for the scan below and for the Swift that fills the filter's bits.
static inline unsigned uti_triple_slot(uint32_t triple) {
    return ((triple & 0xFFFFFFu) * 0x9E3779B1u) >> 16;
}

/// A near literal's four key bytes' hash (read little-endian), of `hash_bits` bits: the filter's second bit test and
/// its buckets. The one definition, for the scan below and for the Swift that files the keys.
static inline unsigned uti_key_hash(uint32_t key, unsigned hash_bits) {
    return (key * 0x9E3779B1u) >> (32 - hash_bits);
}

/// Three bytes' slot (read little-endian; `three`'s high byte is ignored) in the far literals' table of shifts, of
/// `hash_bits` bits. The one definition, for `uti_shift_scan` and for the Swift that fills the table.
static inline unsigned uti_shift_slot(uint32_t three, unsigned hash_bits) {
    return ((three & 0xFFFFFFu) * 0x9E3779B1u) >> (32 - hash_bits);
}

/// PRONOM's near literals' filter: from place `index` on (an even one), every second place of `bytes` (`count` of
/// them) whose three bytes have their slot's bit set in `present` (65,536 bits, 8 KiB, at `uti_triple_slot`);
/// there the four bytes starting at the place and the four starting one before it (keys hold four bytes, so
/// their first three or their last three lie at an even place), where they lie within `count` and their hash
/// (`uti_key_hash`) has its bit in `hashed`, are a key's
/// possible start, written to `starts`. Returns how many were written, at most `capacity` (at least 2); `*next`
/// is the place to go on from (`count` once the bytes are done). With AVX2, where the processor has it, eight
/// places' bits come in one gather (a third less time over /usr/share's first 4 KiB than a load each); `portable`
/// not 0: without it, a load a place, as on every other processor (for the tests, which compare the two).
size_t uti_triple_scan(const unsigned char *bytes, size_t count, size_t index, const uint64_t *present,
                       const uint64_t *hashed, unsigned hash_bits, size_t *starts, size_t capacity, size_t *next, int portable);

/// PRONOM's far literals' pass (Wu and Manber's shifts): the places from `first` to `last` (at least 3) that a window
/// ending there, moved on by the shift of its last three bytes (`shifts`, at `uti_shift_slot`), stops at (a shift
/// of 0), to `ends`, which has room for
/// `last - first + 1`; returns how many. The bytes up to `last` are read. Four windows move side by side, each over
/// a quarter of the places, so that one's wait on its next shift does not hold up the others; the places come in
/// no particular order.
size_t uti_shift_scan(const unsigned char *bytes, size_t first, size_t last, const unsigned char *shifts, unsigned hash_bits,
                      size_t *ends);

#endif
