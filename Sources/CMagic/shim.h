#ifndef UTI_CMAGIC_SHIM_H
#define UTI_CMAGIC_SHIM_H
#include <magic.h>
#endif
