#define _GNU_SOURCE
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

/* The build view (asmrun_view's new_root): a fresh root holding the system's programs and
   libraries and the program's own folders, nothing else of the host. Runs in the namespace
   helper (a forked child: only async-signal-safe calls, no malloc) or a thread of its own,
   after unshare(CLONE_NEWNS). */

enum { MAX_KEPT = 24 };

/* Bound read-only where they exist: the compilers, assemblers, linkers, headers and libraries
   (all under /usr on a merged-/usr system), the `cc` → gcc links of update-alternatives and the
   dynamic loader's cache. Nothing else of /etc: no passwd, shadow, hosts or keys. */
static const char *const system_paths[] = {"/usr", "/etc/alternatives", "/etc/ld.so.cache"};
/* Links into /usr on a merged-/usr system (copied as links), folders of their own elsewhere
   (bound read-only). */
static const char *const top_links[] = {"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"};

enum { SYSTEM_COUNT = sizeof system_paths / sizeof system_paths[0], LINK_COUNT = sizeof top_links / sizeof top_links[0] };

/* Creates `path` and the folders above it (mode 0755) where they are missing. */
static int make_folders(char *path) {
    size_t length = strlen(path);
    for (size_t index = 1; index <= length; index++) {
        if (path[index] != '/' && path[index] != 0) continue;
        char saved = path[index];
        path[index] = 0;
        int made = mkdir(path, 0755) == 0 || errno == EEXIST;
        path[index] = saved;
        if (!made) return errno;
    }
    return 0;
}

/* `/bin` and its kind under the new root: the same link, or the folder bound read-only. */
static int copy_top_link(const char *root, const char *path) {
    struct stat info;
    if (lstat(path, &info) != 0) return 0;
    char target[ASMRUN_PATH_SIZE];
    int code = asmrun_join_path(target, root, path);
    if (code != 0) return code;
    if (S_ISLNK(info.st_mode)) {
        char link[ASMRUN_PATH_SIZE];
        ssize_t length = readlink(path, link, sizeof link - 1);
        if (length < 0) return errno;
        link[length] = 0;
        return symlink(link, target) == 0 ? 0 : errno;
    }
    int fd = open(path, O_PATH | O_CLOEXEC);
    if (fd < 0) return 0;
    code = asmrun_bind_fd(fd, target);
    close(fd);
    return code;
}

/* Binds each of `fds` (opened before the new root covered their paths) at its path under it. */
static int bind_all(const char *root, const int *fds, const char *const *paths, int count) {
    char target[ASMRUN_PATH_SIZE];
    for (int index = 0; index < count; index++) {
        if (fds[index] < 0) continue;
        int code = asmrun_join_path(target, root, paths[index]);
        if (code == 0) code = asmrun_bind_fd(fds[index], target);
        if (code != 0) return code;
    }
    return 0;
}

/* Clears the read-only flag of each writable path under the new root. */
static int open_up(const char *root, const int *fds, const char *const *paths, int count) {
    char target[ASMRUN_PATH_SIZE];
    for (int index = 0; index < count; index++) {
        if (fds[index] < 0) continue;
        int code = asmrun_join_path(target, root, paths[index]);
        if (code == 0) code = asmrun_set_read_only(target, 0, 1);
        if (code != 0) return code;
    }
    return 0;
}

/* The mounts of the new root at `root`, before it becomes the root. */
static int fill_root(const asmrun_view *view, const int *fds, const char *const *paths, int kept, int writable_from,
                     const int *device_fds) {
    const char *root = view->new_root;
    if (mount("tmpfs", root, "tmpfs", MS_NOSUID | MS_NODEV, "mode=755,size=1m") != 0) return errno;
    int code = 0;
    for (int index = 0; index < LINK_COUNT && code == 0; index++) code = copy_top_link(root, top_links[index]);
    if (code == 0) code = asmrun_make_dev(device_fds, root);
    char folder[ASMRUN_PATH_SIZE];
    if (code == 0 && view->working_directory) {
        code = asmrun_join_path(folder, root, view->working_directory);
        if (code == 0) code = make_folders(folder);
    }
    if (code == 0) code = bind_all(root, fds, paths, kept);
    if (code == 0) code = asmrun_set_read_only(root, 1, 1);
    if (code == 0) code = open_up(root, fds + writable_from, paths + writable_from, kept - writable_from);
    return code;
}

int asmrun_make_build_root(const asmrun_view *view) {
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) return errno;
    /* Everything is opened first: the new root may cover where these are (a folder in /tmp). */
    const char *paths[MAX_KEPT];
    int count = 0;
    for (int index = 0; index < SYSTEM_COUNT; index++) paths[count++] = system_paths[index];
    for (int index = 0; index < view->visible_count && count < MAX_KEPT; index++) paths[count++] = view->visible[index];
    int writable_from = count;
    if (count < MAX_KEPT) paths[count++] = view->scratch;
    for (int index = 0; index < view->writable_count && count < MAX_KEPT; index++) paths[count++] = view->writable[index];
    if (count - SYSTEM_COUNT < view->visible_count + 1 + view->writable_count) return E2BIG;
    /* Relative paths would be made below the host's root, not the new one. */
    if (view->new_root[0] != '/' || (view->working_directory && view->working_directory[0] != '/')) return EINVAL;
    for (int index = 0; index < count; index++) {
        if (paths[index][0] != '/') return EINVAL;
    }
    int fds[MAX_KEPT];
    for (int index = 0; index < count; index++) {
        fds[index] = open(paths[index], O_PATH | O_CLOEXEC);
        if (fds[index] < 0 && index >= writable_from) return errno; /* a folder the build must write */
    }
    int device_fds[ASMRUN_DEVICE_COUNT];
    asmrun_open_devices(device_fds);
    int code = fill_root(view, fds, paths, count, writable_from, device_fds);
    for (int index = 0; index < count; index++) {
        if (fds[index] >= 0) close(fds[index]);
    }
    for (int index = 0; index < ASMRUN_DEVICE_COUNT; index++) {
        if (device_fds[index] >= 0) close(device_fds[index]);
    }
    if (code != 0) return code;
    /* The new root becomes the namespace's: whoever enters it later starts there, and the old
       root, detached, is out of reach. */
    if (chdir(view->new_root) != 0) return errno;
    if (syscall(SYS_pivot_root, ".", ".") != 0) return errno;
    if (umount2(".", MNT_DETACH) != 0) return errno;
    return chdir("/") == 0 ? 0 : errno;
}
