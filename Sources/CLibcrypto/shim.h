#ifndef UTI_CLIBCRYPTO_SHIM_H
#define UTI_CLIBCRYPTO_SHIM_H
// OpenSSL's libcrypto (Debian's libssl-dev): its message digests, through the EVP interface.
#include <openssl/evp.h>
#endif
