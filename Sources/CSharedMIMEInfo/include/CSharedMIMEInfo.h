#ifndef UTI_CSHAREDMIMEINFO_H
#define UTI_CSHAREDMIMEINFO_H

#include <stddef.h>

// shared-mime-info 2.4's compiled data and Apache Tika's own types beside it (TypeDB/mime; GPL-2.0-or-later,
// see NOTICE), linked only with the BuiltInSharedMIMEInfo trait of the FileIdentification module.

/// A file of the built-in shared-mime-info data ("magic", "types", "aliases", "globs2", "XMLnamespaces",
/// "version"), its size in `size`; NULL (and 0) when there is no such file.
const unsigned char *uti_builtin_mime_file(const char *name, size_t *size);

#endif
