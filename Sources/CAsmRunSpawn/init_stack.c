#define _GNU_SOURCE
#include "internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

/* Stacks given back, for the next cases (a munmap would interrupt every CPU asmrun's threads
   ran on). More than this many at once are unmapped. */
#define KEPT_STACKS 16

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static void *kept[KEPT_STACKS];
static int kept_count;

/* ASMRUN_COPIED_INIT set takes the way of kernels and emulators that refuse an init sharing
   asmrun's memory, so that tests can run it where nothing refuses. Read once. */
static pthread_once_t environment_read = PTHREAD_ONCE_INIT;
static int copied;

static void read_environment(void) { copied = getenv("ASMRUN_COPIED_INIT") != NULL; }

static size_t guard_size(void) {
    long page = sysconf(_SC_PAGESIZE);
    return page > 0 ? (size_t)page : 4096;
}

void *asmrun_take_init_stack(void) {
    pthread_once(&environment_read, read_environment);
    if (!ASMRUN_HAS_RAW_SYSCALL || copied) return NULL;
    void *stack = NULL;
    pthread_mutex_lock(&lock);
    if (kept_count > 0) stack = kept[--kept_count];
    pthread_mutex_unlock(&lock);
    if (stack) return stack;
    size_t guard = guard_size();
    char *mapping = mmap(NULL, guard + ASMRUN_INIT_STACK_SIZE, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (mapping == MAP_FAILED) return NULL;
    /* An overflow faults in the guard page (killing the init alone) instead of writing below. */
    if (mprotect(mapping, guard, PROT_NONE) != 0) {
        munmap(mapping, guard + ASMRUN_INIT_STACK_SIZE);
        return NULL;
    }
    return mapping + guard;
}

void asmrun_release_init_stack(void *stack) {
    if (!stack) return;
    pthread_mutex_lock(&lock);
    int kept_it = kept_count < KEPT_STACKS;
    if (kept_it) kept[kept_count++] = stack;
    pthread_mutex_unlock(&lock);
    if (!kept_it) {
        size_t guard = guard_size();
        munmap((char *)stack - guard, guard + ASMRUN_INIT_STACK_SIZE);
    }
}
