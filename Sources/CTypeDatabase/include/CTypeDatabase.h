#ifndef UTI_CTYPEDATABASE_H
#define UTI_CTYPEDATABASE_H

#include <stddef.h>
#include <stdint.h>

/// The compiled built-in type database (see TypeDB/README.md), as laid out by `compile-typedb`.
const unsigned char *uti_builtin_typedb_bytes(void);

/// The size in bytes of the compiled built-in type database.
size_t uti_builtin_typedb_size(void);

/// How many MIME names `mediatypes.c` holds (every name the database or its four vocabularies know).
size_t uti_media_type_count(void);

/// The MIME name at `index` (lower-case; in byte order), NULL past the end.
const char *uti_media_type_name(size_t index);

/// Which vocabularies know the name at `index`: 1 IANA (registered, not deprecated), 2 a freedesktop type,
/// 4 a freedesktop alias, 8 an Apache Tika type, 16 a Tika alias, 32 a string libmagic prints, 64 a name
/// Magika's content types give.
unsigned char uti_media_type_vocabularies(size_t index);

/// The index of the name the format of the name at `index` goes by: the freedesktop type an alias names
/// (else the Apache Tika type); `index` itself for a name that is no alias.
size_t uti_media_type_canonical(size_t index);

/// How many filename extensions `mediatypes.c` holds whose name alone settles no format: those formats
/// of different families claim across the sources (`key`, `mod`, `bin`), and those carried only from
/// libmagic's lists of extensions seen (`dat`).
size_t uti_extension_count(void);

/// The extension at `index` (lower-case; in byte order), NULL past the end.
const char *uti_extension(size_t index);

/// What the extension at `index` is: 1 shared by formats of different families, 2 carried only from
/// libmagic's lists (bits).
unsigned char uti_extension_kinds(size_t index);

/// GitHub Linguist's tables (languages.c, from TypeDB/languages.json; patterns in PCRE2's syntax).
///
/// A condition of a rule: `pattern` matches somewhere in the text (`matches` 1), or nowhere (0). The text
/// must hold one of `literals`, or one of `folded_literals` in its ASCII lower-case, for the pattern to
/// match (no such test when both counts are 0).
struct uti_language_condition {
    int matches;
    const char *pattern;
    size_t literal_count;
    const char *const *literals;
    size_t folded_literal_count;
    const char *const *folded_literals;
};

/// A rule: the types it chooses (none: a language the database lacks) when every condition holds.
struct uti_language_rule {
    size_t type_count;
    const char *const *types;
    size_t condition_count;
    const struct uti_language_condition *conditions;
};

/// A disambiguation: its rules, in order.
struct uti_language_disambiguation {
    size_t rule_count;
    const struct uti_language_rule *rules;
};

/// An extension with a disambiguation (lower-case, no dot): the index of its disambiguation.
struct uti_language_heuristics {
    const char *extension;
    size_t disambiguation;
};

/// An extension other types claim, and the language types Linguist also gives it.
struct uti_language_further {
    const char *extension;
    size_t type_count;
    const char *const *types;
};

/// How many extensions have further candidates; the one at `index` (in byte order of the extensions),
/// NULL past the end.
size_t uti_language_further_count(void);
const struct uti_language_further *uti_language_further_at(size_t index);

/// How many extensions have a disambiguation; the one at `index` (in byte order), NULL past the end.
size_t uti_language_heuristics_count(void);
const struct uti_language_heuristics *uti_language_heuristics_at(size_t index);

/// The disambiguation at `index`, NULL past the end.
const struct uti_language_disambiguation *uti_language_disambiguation_at(size_t index);

/// PRONOM's formats and signatures (pronom.c, from TypeDB/pronom.json), as tables of 32-bit words read in
/// place; every index is into the table named, every string an offset into `uti_pronom_strings`, every byte
/// offset into `uti_pronom_bytes`; UINT32_MAX is "no bound" for a maximum and "none" for a string.
///   0 tests, 3 words each: kind (0 literal, 1 not that literal, 2 range, 3 not in range, 4 every bit of a
///     mask, 5 not every bit, 6 any bit of a mask, 7 no bit, 8 any byte), length, byte offset (a range's low
///     end, then its high end)
///   1 alternatives, 3: first test, test count, length in bytes
///   2 elements, 4: first alternative, alternative count, gap before it (minimum, maximum)
///   3 subsequences, 4: first element, element count, window (minimum, maximum)
///   4 sequences, 3: first subsequence, count, anchor (0 beginning of file, 1 end of file, 2 anywhere)
///   5 signatures, 3: first sequence, count, DROID's signature ID
///   6 container signatures, 4: container (0 ZIP, 1 OLE2), first entry, entry count, ID
///   7 container entries, 3: path (string), first sequence, count
///   8 formats, 12: PUID, name, version, MIME type (strings); then (first reference, count) for its
///     extensions (strings), the formats it has priority over, its signatures, its container signatures
///   9 references
const uint32_t *uti_pronom_words(unsigned table, size_t *count);
const unsigned char *uti_pronom_bytes(size_t *count);
const char *uti_pronom_strings(size_t *count);
unsigned uti_pronom_signature_file_version(void);
unsigned uti_pronom_container_file_version(void);


#endif
