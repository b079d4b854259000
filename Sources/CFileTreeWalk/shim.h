#ifndef UTI_CFILETREEWALK_SHIM_H
#define UTI_CFILETREEWALK_SHIM_H
// fts(3), which Swift's Glibc module does not export.
#include <sys/types.h>
#include <sys/stat.h>
#include <fts.h>
#endif
