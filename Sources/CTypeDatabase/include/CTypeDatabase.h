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

/// GitHub Linguist's further candidates, by extension (lower-case, in byte order; see languages.c): how many
/// extensions other types claim that Linguist gives further languages.
size_t uti_language_further_count(void);

/// The extension at `index`, NULL past the end.
const char *uti_language_further_extension(size_t index);

/// The language types Linguist also gives the extension at `index`, identifiers separated by spaces.
const char *uti_language_further_types(size_t index);

/// GitHub Linguist's heuristics, by extension (lower-case, in byte order): how many extensions have some.
size_t uti_language_heuristics_count(void);

/// The extension at `index`, NULL past the end.
const char *uti_language_heuristics_extension(size_t index);

/// The rules for the extension at `index`, one line each (`R`, `+`, `-`; see languages.c).
const char *uti_language_heuristics_rules(size_t index);

#endif
