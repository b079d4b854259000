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
/// `mask` has bits (`mask` 0xFF: exactly `value`); NULL for none. Both bytes lie within `length`. The C library's
/// `memchr` finds the first byte (`by_second`: the second, `mask` then 0xFF, the less likely one), and the other
/// is compared here, without a return to the caller at each place the one byte alone is. PRONOM's short literals
/// (`v ` of Wavefront OBJ, `00 32` of a UTF-16 text, MPEG audio's frame headers), which a search by one byte stopped
/// at every `v` of every text, every `2`, every `FF` of compressed data; shared-mime-info's rules searched over a
/// range, by their first two bytes.
const void *uti_find_pair(const void *bytes, size_t length, unsigned char first, unsigned char mask, unsigned char value,
                          int by_second);

/// Reads `bytes` (`length` of them) as text: counts the C0 control characters into `controls` (tab, line feed,
/// carriage return, form feed, escape and backspace, which text is laid out with, are not counted) and sets
/// `high_bit` to whether a byte has its high bit set; returns 0, or -1 at a NUL (the outputs then untouched).
/// Thirty-two bytes at a time with AVX2 where the processor has it, sixteen with SSE2, byte by byte elsewhere.
int uti_scan_text(const unsigned char *bytes, size_t length, size_t *controls, int *high_bit);

/// A pair of bytes' slot in the near literals' filter table: its thirteen-bit hash. The one definition, for the
/// scan below and for the Swift that fills the table.
static inline unsigned uti_pair_slot(unsigned pair) {
    return (pair * 0x9E3779B1u) >> 19;
}

/// PRONOM's near literals' filter: from place `index` on, every third place of `bytes` (`count` of them) whose pair
/// of bytes (`bytes[i] | bytes[i + 1] << 8`) has a byte that is not zero in `present` (8 KiB, at the pair's
/// thirteen-bit hash `(pair * 0x9E3779B1) >> 19`); for each bit `o` of that byte (a pair of that hash lies `o`
/// bytes into a key), the four bytes starting `o` before the place, where they lie within `count` and their hash
/// (`(key * 0x9E3779B1) >> (32 - hash_bits)`, the key read little-endian) has its bit in `hashed`, are a key's
/// possible start, written to `starts`. Returns how many were written, at most `capacity` (at least 3); `*next`
/// is the place to go on from (`count` once the bytes are done).
size_t uti_pair_scan(const unsigned char *bytes, size_t count, size_t index, const unsigned char *present,
                     const uint64_t *hashed, unsigned hash_bits, size_t *starts, size_t capacity, size_t *next);

#endif
