#define _GNU_SOURCE
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Build views made from a template (asmrun_make_view_from_template): a copy of a view's small
   mount namespace, the program's folder cloned in from the host's with open_tree and moved
   into place with move_mount, as systemd does. The template gains at most an empty folder at
   the top of each folder's way (/tmp, /home); the rest of the way is made on a tmpfs of the
   view's own, mounted over the deepest folder on that way that the template holds, so no view
   sees another's folder, nor even its name. */

#ifndef SYS_open_tree
#define SYS_open_tree 428
#endif
#ifndef SYS_move_mount
#define SYS_move_mount 429
#endif
#ifndef OPEN_TREE_CLONE
#define OPEN_TREE_CLONE 1
#endif
#ifndef MOVE_MOUNT_F_EMPTY_PATH
#define MOVE_MOUNT_F_EMPTY_PATH 0x00000004
#endif
#ifndef STATX_ATTR_MOUNT_ROOT
#define STATX_ATTR_MOUNT_ROOT 0x00002000
#endif

/* What the template holds below the covered folder, made again on the view's tmpfs: folders,
   links, and mounts (cloned before they are covered). More than this falls back. */
enum { MAX_ENTRIES = 32, POOL_SIZE = 8192, MAX_DEPTH = 16 };
enum kind { FOLDER, LINK, MOUNTED_FOLDER, MOUNTED_FILE };

struct skeleton {
    int count;
    struct {
        enum kind kind;
        int fd;           /* the clone, for a mount */
        unsigned path;    /* relative to the covered folder, in pool */
        unsigned link;    /* a link's target, in pool */
    } entries[MAX_ENTRIES];
    size_t used;
    char pool[POOL_SIZE];
};

struct dirent64_record {
    unsigned long long d_ino;
    long long d_off;
    unsigned short d_reclen;
    unsigned char d_type;
    char d_name[];
};

/* Records what `dir` (`prefix` below the covered folder, in the pool) holds. */
static int read_folder(struct skeleton *s, int dir, const char *prefix, int depth) {
    if (depth > MAX_DEPTH) return ENOTSUP;
    char buffer[1024];
    for (;;) {
        long got = syscall(SYS_getdents64, dir, buffer, sizeof buffer);
        if (got < 0) return errno;
        if (got == 0) return 0;
        for (long offset = 0; offset < got;) {
            struct dirent64_record *entry = (struct dirent64_record *)(buffer + offset);
            offset += entry->d_reclen;
            const char *name = entry->d_name;
            if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0) continue;
            if (s->count >= MAX_ENTRIES) return ENOTSUP;
            struct statx info;
            if (statx(dir, name, AT_SYMLINK_NOFOLLOW, STATX_TYPE, &info) != 0) return errno;
            if (!(info.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT)) return ENOTSUP;
            size_t prefix_length = strlen(prefix), name_length = strlen(name);
            if (s->used + prefix_length + 1 + name_length + 1 > POOL_SIZE) return ENOTSUP;
            int index = s->count++;
            char *path = s->pool + s->used;
            memcpy(path, prefix, prefix_length);
            path[prefix_length] = '/';
            memcpy(path + prefix_length + 1, name, name_length + 1);
            s->entries[index].path = (unsigned)s->used;
            s->entries[index].fd = -1;
            s->used += prefix_length + 1 + name_length + 1;
            if (info.stx_attributes & STATX_ATTR_MOUNT_ROOT) {
                s->entries[index].kind = S_ISDIR(info.stx_mode) ? MOUNTED_FOLDER : MOUNTED_FILE;
                s->entries[index].fd = (int)syscall(SYS_open_tree, dir, name,
                                                    OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE | AT_SYMLINK_NOFOLLOW);
                if (s->entries[index].fd < 0) return errno;
            } else if (S_ISDIR(info.stx_mode)) {
                s->entries[index].kind = FOLDER;
                int inner = openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (inner < 0) return errno;
                int code = read_folder(s, inner, path, depth + 1);
                close(inner);
                if (code != 0) return code;
            } else if (S_ISLNK(info.stx_mode)) {
                s->entries[index].kind = LINK;
                size_t room = POOL_SIZE - s->used;
                ssize_t length = readlinkat(dir, name, s->pool + s->used, room);
                if (length < 0) return errno;
                if ((size_t)length >= room) return ENOTSUP;
                s->pool[s->used + (size_t)length] = 0;
                s->entries[index].link = (unsigned)s->used;
                s->used += (size_t)length + 1;
            } else {
                return ENOTSUP; /* a file of the template's own: none is made outside /dev */
            }
        }
    }
}

/* The skeleton again below `cover` (the view's tmpfs, mounted there), the clones moved in. */
static int rebuild(const struct skeleton *s, const char *cover) {
    char target[ASMRUN_PATH_SIZE];
    for (int index = 0; index < s->count; index++) {
        int code = asmrun_join_path(target, cover, s->pool + s->entries[index].path);
        if (code != 0) return code;
        switch (s->entries[index].kind) {
        case FOLDER:
        case MOUNTED_FOLDER:
            if (mkdir(target, 0755) != 0) return errno;
            break;
        case LINK:
            if (symlink(s->pool + s->entries[index].link, target) != 0) return errno;
            break;
        case MOUNTED_FILE: {
            int file = open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
            if (file < 0) return errno;
            close(file);
            break;
        }
        }
        if (s->entries[index].fd >= 0 &&
            syscall(SYS_move_mount, s->entries[index].fd, "", AT_FDCWD, target, MOVE_MOUNT_F_EMPTY_PATH) != 0)
            return errno;
    }
    return 0;
}

/* The folders at the top of the tree that name no one (the Filesystem Hierarchy Standard's, and
   Gradescope's /autograder): the only ones the template gains, since every view sees them. */
static int is_system_name(const char *name) {
    static const char *const names[] = {"autograder", "home", "media", "mnt", "opt", "root", "run", "srv", "tmp", "var"};
    for (size_t index = 0; index < sizeof names / sizeof names[0]; index++) {
        if (strcmp(name, names[index]) == 0) return 1;
    }
    return 0;
}

/* The deepest folder on the way to `folder` that the template holds (`cover`), on its root
   tmpfs. Where that is the root itself, the folder's first component is made there, empty (in
   the template, so later views see that name: /tmp, /home) and covered. ENOTSUP where the
   folder is itself at the top, its first component is no system name (`/alice-hw/lab1`: the
   name would be every later view's to see), the template holds the folder (the way to the
   working directory goes through it), or the way leaves the root tmpfs (a folder in /dev, a
   link). */
static int find_cover(const char *folder, char *cover, size_t *covered) {
    size_t length = strlen(folder);
    if (folder[0] != '/' || length < 2 || folder[length - 1] == '/') return ENOTSUP;
    if (length >= ASMRUN_PATH_SIZE) return ENAMETOOLONG;
    struct stat root, info;
    if (stat("/", &root) != 0) return errno;
    *covered = 0;
    for (size_t index = 1; index <= length; index++) {
        if (folder[index] != '/' && folder[index] != 0) continue;
        memcpy(cover, folder, index);
        cover[index] = 0;
        if (lstat(cover, &info) != 0) {
            if (errno == ENOENT) break;
            return errno;
        }
        if (!S_ISDIR(info.st_mode) || info.st_dev != root.st_dev || index == length) return ENOTSUP;
        *covered = index;
    }
    if (*covered == 0) {
        const char *slash = strchr(folder + 1, '/');
        if (!slash) return ENOTSUP;
        *covered = (size_t)(slash - folder);
        memcpy(cover, folder, *covered);
        cover[*covered] = 0;
        if (!is_system_name(cover + 1)) return ENOTSUP;
        int code = asmrun_set_read_only("/", 0, 0);
        if (code == 0 && mkdir(cover, 0755) != 0 && errno != EEXIST) code = errno;
        int sealed = asmrun_set_read_only("/", 1, 0);
        return code != 0 ? code : sealed;
    }
    cover[*covered] = 0;
    return 0;
}

/* Adds `tree` (the folder's clone) at `folder` to the calling thread's mount namespace, a
   fresh copy of the template's: the covered folder's content cloned, a tmpfs over it holding
   that content again and the way to the folder, the folder moved in; both read-only and the
   folder private (a clone of a shared mount would be its peer). */
static int add_folder(int tree, const char *folder) {
    char cover[ASMRUN_PATH_SIZE];
    size_t covered = 0;
    int code = find_cover(folder, cover, &covered);
    if (code != 0) return code;
    struct skeleton s;
    s.count = 0;
    s.used = 0;
    int dir = open(cover, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dir < 0) return errno;
    code = read_folder(&s, dir, "", 0);
    close(dir);
    if (code == 0 && mount("tmpfs", cover, "tmpfs", MS_NOSUID | MS_NODEV, "mode=755,size=64k") != 0) code = errno;
    if (code == 0) code = rebuild(&s, cover);
    for (int index = 0; index < s.count; index++) {
        if (s.entries[index].fd >= 0) close(s.entries[index].fd);
    }
    char way[ASMRUN_PATH_SIZE];
    size_t length = strlen(folder);
    for (size_t index = covered + 1; index <= length && code == 0; index++) {
        if (folder[index] != '/' && folder[index] != 0) continue;
        memcpy(way, folder, index);
        way[index] = 0;
        if (mkdir(way, 0755) != 0) code = errno;
    }
    if (code == 0 && syscall(SYS_move_mount, tree, "", AT_FDCWD, folder, MOVE_MOUNT_F_EMPTY_PATH) != 0) code = errno;
    if (code == 0) {
        struct mount_attr attr;
        memset(&attr, 0, sizeof attr);
        attr.attr_set = MOUNT_ATTR_RDONLY;
        attr.propagation = MS_PRIVATE;
        if (syscall(SYS_mount_setattr, -1, folder, AT_RECURSIVE, &attr, sizeof attr) != 0) code = errno;
    }
    if (code == 0) code = asmrun_set_read_only(cover, 1, 0);
    return code;
}

struct template_job {
    const char *folder;
    int template_fd, user_fd, host_fd, proc_fd;
    int result, mnt_fd;
    const char *step;
};

/* The view, from a thread or helper in the namespace the folder is cloned from. */
static void make_from_template(struct template_job *job) {
    job->step = "cloning the folder (open_tree)";
    int tree = (int)syscall(SYS_open_tree, AT_FDCWD, job->folder, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE);
    if (tree < 0) { job->result = errno; return; }
    job->step = "entering the template";
    if (setns(job->template_fd, CLONE_NEWNS) != 0 || unshare(CLONE_NEWNS) != 0) {
        job->result = errno;
    } else if ((job->mnt_fd = openat(job->proc_fd, "thread-self/ns/mnt", O_RDONLY | O_CLOEXEC)) < 0) {
        job->result = errno;
    } else {
        job->step = "adding the folder (move_mount)";
        if ((job->result = add_folder(tree, job->folder)) != 0) {
            close(job->mnt_fd);
            job->mnt_fd = -1;
        }
    }
    close(tree);
}

static void *template_thread(void *argument) {
    struct template_job *job = argument;
    /* setns into a mount namespace needs a file system context of the thread's own. */
    if (unshare(CLONE_FS) != 0) {
        job->step = "entering the template";
        job->result = errno;
    } else {
        make_from_template(job);
    }
    return NULL;
}

static int template_helper(void *argument) {
    struct template_job *job = argument;
    job->step = "entering the build's user namespace";
    if (setns(job->user_fd, CLONE_NEWUSER) != 0) {
        job->result = errno;
    } else if (!job->folder) {
        /* asmrun_copy_host_mounts: the host's mounts, as the user namespace's to clone from. */
        job->step = "mount namespace";
        if (unshare(CLONE_NEWNS) != 0 || (job->mnt_fd = openat(job->proc_fd, "thread-self/ns/mnt", O_RDONLY | O_CLOEXEC)) < 0)
            job->result = errno;
    } else if (setns(job->host_fd, CLONE_NEWNS) != 0) {
        job->result = errno;
    } else {
        make_from_template(job);
    }
    _exit(0);
}

/* Runs `job` on a thread (root) or a helper sharing asmrun's memory and descriptors (in the
   user namespace). ENOTSUP where no such helper can be had. */
static int run_job(struct template_job *job) {
    job->proc_fd = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (job->proc_fd < 0) return errno;
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &previous);
    int code = 0;
    if (job->user_fd < 0) {
        pthread_t thread;
        code = pthread_create(&thread, NULL, template_thread, job);
        if (code == 0) pthread_join(thread, NULL);
    } else {
        void *stack = asmrun_take_init_stack();
        char *top = stack ? (char *)(((unsigned long)((char *)stack + ASMRUN_INIT_STACK_SIZE - 64)) & ~15UL) : NULL;
        pid_t helper = stack ? clone(template_helper, top, CLONE_VM | CLONE_FILES | CLONE_VFORK | SIGCHLD, job) : -1;
        if (helper < 0) {
            code = ENOTSUP;
        } else {
            int status;
            while (waitpid(helper, &status, 0) < 0 && errno == EINTR) {}
        }
        asmrun_release_init_stack(stack);
    }
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    close(job->proc_fd);
    return code;
}

int asmrun_make_view_from_template(int template_fd, int user_fd, int host_fd, const char *folder, int *mnt_fd,
                                   const char **step) {
    struct template_job job = {folder, template_fd, user_fd, host_fd, -1, 0, -1, "view"};
    *mnt_fd = -1;
    if (user_fd >= 0 && host_fd < 0) { *step = "view"; return EINVAL; }
    int code = run_job(&job);
    *step = job.step;
    if (code != 0) return code;
    *mnt_fd = job.mnt_fd;
    return job.result;
}

int asmrun_copy_host_mounts(int user_fd, int *mnt_fd, const char **step) {
    struct template_job job = {NULL, -1, user_fd, -1, -1, 0, -1, "view"};
    *mnt_fd = -1;
    int code = user_fd < 0 ? EINVAL : run_job(&job);
    *step = job.step;
    if (code != 0) return code;
    *mnt_fd = job.mnt_fd;
    return job.result;
}
