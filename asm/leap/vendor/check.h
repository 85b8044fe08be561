/* A minimal assertion framework for C test drivers of asm functions: CHECK counts and reports
   each failed expectation, CHECK_DONE prints the summary and returns the exit status. */
#ifndef CHECK_H
#define CHECK_H
#include <stdio.h>

static int check_run, check_failed;

#define CHECK(expression)                                                              \
    do {                                                                               \
        check_run++;                                                                   \
        if (!(expression)) {                                                           \
            check_failed++;                                                            \
            printf("%s:%d: FAILED: %s\n", __FILE__, __LINE__, #expression);            \
        }                                                                              \
    } while (0)

#define CHECK_DONE()                                                                   \
    (printf("%d checks, %d failed\n", check_run, check_failed), check_failed ? 1 : 0)

#endif
