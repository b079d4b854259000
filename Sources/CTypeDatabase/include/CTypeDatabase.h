#ifndef UTI_CTYPEDATABASE_H
#define UTI_CTYPEDATABASE_H

#include <stddef.h>

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

#endif
