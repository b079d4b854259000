#include "CFuzzDriver.h"

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*test)(const uint8_t *data, size_t size));

int uti_fuzz_main(int argc, char **argv, int (*test)(const uint8_t *data, size_t size)) {
    return LLVMFuzzerRunDriver(&argc, &argv, test);
}
