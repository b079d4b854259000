#ifndef UTI_CZLIB_SHIM_H
#define UTI_CZLIB_SHIM_H
#include <zlib.h>

/// inflateInit2 is a macro; raw deflate (no zlib header) as ZIP stores it.
static inline int uti_inflate_init_raw(z_stream *stream) {
    return inflateInit2(stream, -MAX_WBITS);
}
#endif
