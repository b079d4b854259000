#ifndef UTI_CARCHIVE_SHIM_H
#define UTI_CARCHIVE_SHIM_H
// libarchive's declarations only: the library itself is loaded with dlopen when archives are read
// (FileIdentification's LibArchive), so that no other command pays for loading it and what it links.
#include <archive.h>
#include <archive_entry.h>
#include <malloc.h>

/// Gives the memory freed since back to the system (glibc's `malloc_trim`, which Swift's Glibc module does
/// not declare): after reading a large archive, whose decoders' and buffers' memory the allocator keeps.
static inline void uti_give_back_freed_memory(void) {
    malloc_trim(0);
}

#endif
