#ifndef ASMRUN_HASH_H
#define ASMRUN_HASH_H

#include <stddef.h>
#include <stdint.h>

/// Compresses `blocks` 64-byte blocks at `data` into the SHA-256 `state` (its eight words, a to h)
/// with the processor's SHA-256 instructions (x86 SHA extensions, Armv8 SHA2). Returns 1, or 0
/// without touching `state` where the processor has none: the caller then compresses them itself.
int asmrun_sha256_blocks(uint32_t state[8], const void *data, size_t blocks);

/// SHA-256's 64 round constants (FIPS 180-4, 4.2.2), for the compression done in Swift.
const uint32_t *asmrun_sha256_round_constants(void);

#endif
