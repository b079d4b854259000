#ifndef UTI_CTYPEDATABASE_H
#define UTI_CTYPEDATABASE_H

#include <stddef.h>

/// The compiled built-in type database (see TypeDB/README.md), as laid out by `compile-typedb`.
const unsigned char *uti_builtin_typedb_bytes(void);

/// The size in bytes of the compiled built-in type database.
size_t uti_builtin_typedb_size(void);

#endif
