#ifndef UTI_CPCRE2_SHIM_H
#define UTI_CPCRE2_SHIM_H
// The 8-bit library: patterns and subjects are UTF-8. (pcre2.h names each function by this width: pcre2_compile_8.)
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#endif
