/* SHA-256 block compression with the processor's own instructions, chosen once at run time.
   Four rounds per step: the message schedule and the rounds follow FIPS 180-4 with the
   instructions' grouping (Intel's "SHA extensions" paper; Arm's A64 SHA256H/H2/SU0/SU1). */
#include "asmrun_hash.h"

#include <pthread.h>

static const uint32_t k[64] __attribute__((aligned(16))) = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

static int has_instructions(void) {
    unsigned eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
    int ssse3 = (ecx >> 9) & 1, sse41 = (ecx >> 19) & 1;
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return 0;
    return ssse3 && sse41 && ((ebx >> 29) & 1);
}

/* The state lives as ABEF and CDGH in two registers, as SHA256RNDS2 wants it. */
__attribute__((target("sha,sse4.1,ssse3"))) static void compress(uint32_t state[8], const uint8_t *data, size_t blocks) {
    const __m128i order = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    __m128i cdab = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&state[0]), 0xB1);
    __m128i efgh = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&state[4]), 0x1B);
    __m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
    __m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xF0);
    for (; blocks > 0; blocks--, data += 64) {
        __m128i saved_abef = abef, saved_cdgh = cdgh, w[16];
        for (int group = 0; group < 16; group++) {
            if (group < 4) {
                w[group] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16 * group)), order);
            } else {
                __m128i partial = _mm_sha256msg1_epu32(w[group - 4], w[group - 3]);
                partial = _mm_add_epi32(partial, _mm_alignr_epi8(w[group - 1], w[group - 2], 4));
                w[group] = _mm_sha256msg2_epu32(partial, w[group - 1]);
            }
            __m128i message = _mm_add_epi32(w[group], _mm_load_si128((const __m128i *)&k[4 * group]));
            cdgh = _mm_sha256rnds2_epu32(cdgh, abef, message);
            abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(message, 0x0E));
        }
        abef = _mm_add_epi32(abef, saved_abef);
        cdgh = _mm_add_epi32(cdgh, saved_cdgh);
    }
    __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
    __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
    _mm_storeu_si128((__m128i *)&state[0], _mm_blend_epi16(feba, dchg, 0xF0));
    _mm_storeu_si128((__m128i *)&state[4], _mm_alignr_epi8(dchg, feba, 8));
}

#elif defined(__aarch64__)
#include <arm_neon.h>
#include <sys/auxv.h>

#ifndef HWCAP_SHA2
#define HWCAP_SHA2 (1 << 6)
#endif

static int has_instructions(void) { return (getauxval(AT_HWCAP) & HWCAP_SHA2) != 0; }

__attribute__((target("sha2"))) static void compress(uint32_t state[8], const uint8_t *data, size_t blocks) {
    uint32x4_t abcd = vld1q_u32(&state[0]), efgh = vld1q_u32(&state[4]);
    for (; blocks > 0; blocks--, data += 64) {
        uint32x4_t saved_abcd = abcd, saved_efgh = efgh, w[16];
        for (int group = 0; group < 16; group++) {
            if (group < 4) {
                w[group] = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(data + 16 * group)));
            } else {
                w[group] = vsha256su1q_u32(vsha256su0q_u32(w[group - 4], w[group - 3]), w[group - 2], w[group - 1]);
            }
            uint32x4_t message = vaddq_u32(w[group], vld1q_u32(&k[4 * group]));
            uint32x4_t before = abcd;
            abcd = vsha256hq_u32(abcd, efgh, message);
            efgh = vsha256h2q_u32(efgh, before, message);
        }
        abcd = vaddq_u32(abcd, saved_abcd);
        efgh = vaddq_u32(efgh, saved_efgh);
    }
    vst1q_u32(&state[0], abcd);
    vst1q_u32(&state[4], efgh);
}

#else
static int has_instructions(void) { return 0; }
static void compress(uint32_t state[8], const uint8_t *data, size_t blocks) {
    (void)state, (void)data, (void)blocks;
}
#endif

static int available;
static pthread_once_t checked = PTHREAD_ONCE_INIT;

static void check(void) { available = has_instructions(); }

const uint32_t *asmrun_sha256_round_constants(void) { return k; }

int asmrun_sha256_blocks(uint32_t state[8], const void *data, size_t blocks) {
    pthread_once(&checked, check);
    if (!available) return 0;
    compress(state, data, blocks);
    return 1;
}
