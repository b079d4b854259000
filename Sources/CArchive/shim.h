#ifndef UTI_CARCHIVE_SHIM_H
#define UTI_CARCHIVE_SHIM_H
// libarchive's declarations only: the library itself is loaded with dlopen when archives are read
// (FileIdentification's LibArchive), so that no other command pays for loading it and what it links.
#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <malloc.h>

/// Gives the memory freed since back to the system (glibc's `malloc_trim`, which Swift's Glibc module does
/// not declare): after reading a large archive, whose decoders' and buffers' memory the allocator keeps.
static inline void uti_give_back_freed_memory(void) {
    malloc_trim(0);
}

/// `O_TMPFILE`, a macro Swift does not import: a spool file that has no name, so that nothing is left
/// behind whatever happens to the process.
static inline int uti_open_temporary_flag(void) {
#ifdef O_TMPFILE
    return O_TMPFILE;
#else
    return 0;
#endif
}
#endif
