/* What the static release binary changes in the Swift runtime's start-up (static.c). */
#ifndef ASMRUN_STATIC_H
#define ASMRUN_STATIC_H

/* 1 when the arguments were handed to the Swift runtime before it looked for them itself. */
int asmrun_static_arguments_installed(void);

#endif
