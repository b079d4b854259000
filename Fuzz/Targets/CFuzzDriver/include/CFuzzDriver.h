#ifndef UTI_FUZZ_DRIVER_H
#define UTI_FUZZ_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/// Runs libFuzzer's driver (command-line options, corpus, crash reports) over `test`. SwiftPM names an
/// executable's entry point `<Module>_main`; each fuzz target defines that and calls this.
int uti_fuzz_main(int argc, char **argv, int (*test)(const uint8_t *data, size_t size));

#endif
