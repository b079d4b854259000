#ifndef UTI_CEXTENDEDATTRIBUTES_SHIM_H
#define UTI_CEXTENDEDATTRIBUTES_SHIM_H
// getxattr(2) and its kin, which Swift's Glibc module does not export.
#include <sys/types.h>
#include <sys/xattr.h>
#endif
