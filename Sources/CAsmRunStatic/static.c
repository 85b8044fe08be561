/* The Swift runtime's start-up, fitted to a fully static binary that may run in a root holding
   nothing but itself (no /proc, no swift-backtrace, no libc beside it).

   Before main the runtime does two look-ups of its own:
   - CommandLine.cpp finds argv by reading /proc/self/maps for the stack's bounds and walking back
     from `environ`. Without /proc it finds nothing and CommandLine.arguments is empty. glibc
     hands every .init_array function argc, argv and envp (static binaries too), so a constructor
     that runs first gives them to the runtime's override, and the runtime's own reading of
     /proc/self/maps is answered "not there" (`make build` links with --wrap=fopen).
   - Backtrace.cpp asks swift_copyAuxiliaryExecutablePath for swift-backtrace, which reads
     /proc/self/exe and stats eight folders beside the binary. No release ships swift-backtrace;
     `make build` links with --wrap=swift_copyAuxiliaryExecutablePath and the answer is "none",
     so a crash of asmrun itself prints the runtime's one-line fatal error, as it did before.

   Without those --wrap flags (the debug and test builds) the wrappers are never called and the
   constructor only gives the runtime the arguments it would have found itself. */
#include "asmrun_static.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* SWIFT_CC(swift) in the runtime; for a pointer and an int it passes them as C does. */
extern void _swift_stdlib_overrideUnsafeArgvArgc(char **argv, int argc) __attribute__((swiftcall));
/* Weak: only the release link (--wrap=fopen) defines it, and only that link calls __wrap_fopen. */
extern FILE *__real_fopen(const char *path, const char *mode) __attribute__((weak));

static int installed;
static int maps_refusals;

__attribute__((constructor(101))) static void install_arguments(int argc, char **argv, char **envp) {
    (void)envp;
    if (argc < 0 || argv == NULL) return;
    _swift_stdlib_overrideUnsafeArgvArgc(argv, argc);
    installed = 1;
    maps_refusals = 1;
}

int asmrun_static_arguments_installed(void) { return installed; }

/* Only the first /proc/self/maps after the arguments were installed is refused: that is the
   runtime's argv search, which runs in the constructors before main; later readers get the file. */
FILE *__wrap_fopen(const char *path, const char *mode) {
    if (maps_refusals > 0 && path != NULL && strcmp(path, "/proc/self/maps") == 0) {
        maps_refusals--;
        errno = ENOENT;
        return NULL;
    }
    return __real_fopen != NULL ? __real_fopen(path, mode) : NULL;
}

char *__wrap_swift_copyAuxiliaryExecutablePath(const char *name) {
    (void)name;
    return NULL;
}
