// libseccomp (Debian's libseccomp-dev): builds the case's system call filter, once per run.
#include <seccomp.h>
