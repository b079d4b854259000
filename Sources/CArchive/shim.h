#ifndef UTI_CARCHIVE_SHIM_H
#define UTI_CARCHIVE_SHIM_H
// libarchive's declarations only: the library itself is loaded with dlopen when archives are read
// (FileIdentification's LibArchive), so that no other command pays for loading it and what it links.
#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>

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
