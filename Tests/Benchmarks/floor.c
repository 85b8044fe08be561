// The floor of asmrun's benchmark: runs a plan of commands with posix_spawn and does nothing
// else. Programs run in parallel on N threads, each program's steps in order; a step passes
// when it exits with the expected status and, when an expected-output file is given, its stdout
// equals that file byte for byte. No case folders, no cache, no limits, no containment.
//
// Usage: floor -j N PLAN
//
// PLAN has one step per line, fields separated by tabs:
//
//     STATUS  STDIN  EXPECTED  ARGV0  ARGV1 ...
//
// STDIN "-" is /dev/null; EXPECTED "-" sends stdout to /dev/null (stderr always goes there). A
// blank line ends a program. Exits 0 when every step passed, 1 (after the first failure, with a
// message naming the step) otherwise, 2 on a usage or plan error.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

struct step {
    int status;
    const char *stdin_path;     // NULL: /dev/null
    const char *expected_path;  // NULL: stdout not compared
    char **argv;
};

struct program {
    struct step *steps;
    size_t count;
};

struct buffer {
    char *bytes;
    size_t length, capacity;
};

static struct program *programs;
static size_t program_count;
static atomic_size_t next_program;
static atomic_int failed;
static pthread_mutex_t report_lock = PTHREAD_MUTEX_INITIALIZER;

static void die(const char *message, const char *detail) {
    fprintf(stderr, "floor: %s%s%s\n", message, detail ? ": " : "", detail ? detail : "");
    exit(2);
}

static void *allocate(size_t size) {
    void *memory = malloc(size ? size : 1);
    if (!memory) die("out of memory", NULL);
    return memory;
}

static void append(struct buffer *buffer, const char *bytes, size_t length) {
    if (buffer->length + length > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity : 4096;
        while (capacity < buffer->length + length) capacity *= 2;
        buffer->bytes = realloc(buffer->bytes, capacity);
        if (!buffer->bytes) die("out of memory", NULL);
        buffer->capacity = capacity;
    }
    memcpy(buffer->bytes + buffer->length, bytes, length);
    buffer->length += length;
}

// Reads fd to EOF into buffer; returns 0, or -1 with errno set.
static int drain(int fd, struct buffer *buffer) {
    char chunk[65536];
    for (;;) {
        ssize_t got = read(fd, chunk, sizeof chunk);
        if (got > 0) append(buffer, chunk, (size_t)got);
        else if (got == 0) return 0;
        else if (errno != EINTR) return -1;
    }
}

static int read_file(const char *path, struct buffer *buffer) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    int result = drain(fd, buffer);
    close(fd);
    return result;
}

static void fail(const struct step *step, const char *what) {
    pthread_mutex_lock(&report_lock);
    fprintf(stderr, "floor: %s:", what);
    for (char **arg = step->argv; *arg; arg++) fprintf(stderr, " %s", *arg);
    fprintf(stderr, "\n");
    pthread_mutex_unlock(&report_lock);
    atomic_store(&failed, 1);
}

// Spawns one step, drains its stdout to EOF, reaps it and checks it; returns 0 when it passed.
static int run_step(const struct step *step) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, step->stdin_path ? step->stdin_path : "/dev/null", O_RDONLY, 0);
    int pipe_fds[2] = {-1, -1};
    if (step->expected_path) {
        // Both ends close on exec, so a sibling spawned by another thread cannot hold the write
        // end open; dup2 onto stdout clears the flag in this child alone.
        if (pipe2(pipe_fds, O_CLOEXEC) != 0) die("pipe2 failed", strerror(errno));
        posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], 1);
    } else {
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    }
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    int error = posix_spawn(&pid, step->argv[0], &actions, NULL, step->argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    if (pipe_fds[1] >= 0) close(pipe_fds[1]);
    if (error != 0) {
        if (pipe_fds[0] >= 0) close(pipe_fds[0]);
        fail(step, strerror(error));
        return -1;
    }
    struct buffer output = {0};
    int drained = pipe_fds[0] >= 0 ? drain(pipe_fds[0], &output) : 0;
    if (pipe_fds[0] >= 0) close(pipe_fds[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) die("waitpid failed", strerror(errno));
    int passed = drained == 0 && WIFEXITED(status) && WEXITSTATUS(status) == step->status;
    if (!passed) fail(step, WIFEXITED(status) ? "wrong exit status" : "killed by a signal");
    if (passed && step->expected_path) {
        struct buffer expected = {0};
        if (read_file(step->expected_path, &expected) != 0) die("cannot read", step->expected_path);
        passed = expected.length == output.length && memcmp(expected.bytes, output.bytes, output.length) == 0;
        if (!passed) fail(step, "stdout differs");
        free(expected.bytes);
    }
    free(output.bytes);
    return passed ? 0 : -1;
}

static void *worker(void *unused) {
    (void)unused;
    for (;;) {
        size_t index = atomic_fetch_add(&next_program, 1);
        if (index >= program_count || atomic_load(&failed)) return NULL;
        for (size_t k = 0; k < programs[index].count; k++)
            if (run_step(&programs[index].steps[k]) != 0) break;
    }
}

static char *field(char **cursor) {
    char *start = *cursor, *tab = strchr(start, '\t');
    if (tab) {
        *tab = 0;
        *cursor = tab + 1;
    } else {
        *cursor = start + strlen(start);
    }
    return start;
}

static void parse_step(char *line, struct step *step) {
    char *cursor = line;
    char *status = field(&cursor), *stdin_path = field(&cursor), *expected = field(&cursor);
    if (!*cursor) die("a plan line needs STATUS, STDIN, EXPECTED and a command", line);
    step->status = atoi(status);
    step->stdin_path = strcmp(stdin_path, "-") ? stdin_path : NULL;
    step->expected_path = strcmp(expected, "-") ? expected : NULL;
    size_t count = 1;
    for (char *c = cursor; *c; c++) count += *c == '\t';
    step->argv = allocate((count + 1) * sizeof *step->argv);
    for (size_t k = 0; k < count; k++) step->argv[k] = field(&cursor);
    step->argv[count] = NULL;
}

// Splits the plan (kept in memory for the strings the steps point into) into programs.
static void parse_plan(char *text) {
    size_t lines = 1;
    for (char *c = text; *c; c++) lines += *c == '\n';
    programs = allocate(lines * sizeof *programs);
    struct step *steps = allocate(lines * sizeof *steps);
    size_t step_count = 0;
    struct program current = {steps, 0};
    for (char *line = text; line && *line;) {
        char *newline = strchr(line, '\n');
        if (newline) *newline = 0;
        if (*line) {
            parse_step(line, &steps[step_count++]);
            current.count++;
        } else if (current.count) {
            programs[program_count++] = current;
            current = (struct program){steps + step_count, 0};
        }
        line = newline ? newline + 1 : NULL;
    }
    if (current.count) programs[program_count++] = current;
}

int main(int argc, char **argv) {
    if (argc != 4 || strcmp(argv[1], "-j") != 0 || atoi(argv[2]) < 1) {
        fprintf(stderr, "usage: floor -j N PLAN\n");
        return 2;
    }
    int jobs = atoi(argv[2]);
    struct buffer plan = {0};
    if (read_file(argv[3], &plan) != 0) die("cannot read the plan", argv[3]);
    append(&plan, "", 1);
    parse_plan(plan.bytes);
    pthread_t *threads = allocate((size_t)jobs * sizeof *threads);
    for (int k = 0; k < jobs; k++)
        if (pthread_create(&threads[k], NULL, worker, NULL) != 0) die("cannot start a thread", NULL);
    for (int k = 0; k < jobs; k++) pthread_join(threads[k], NULL);
    return atomic_load(&failed) ? 1 : 0;
}
