/*
 * ST_PRINTF(fmt, args): printf-style checking of a function's format.
 * MinGW's GCC takes plain `printf` to mean msvcrt's formats (no %zu), while
 * the build uses MinGW's C99 printf (__USE_MINGW_ANSI_STDIO); its header
 * names the matching archetype.
 */
#ifndef SYSTRACE_PRINTF_H
#define SYSTRACE_PRINTF_H

#include <stdio.h>

#ifdef __MINGW_PRINTF_FORMAT
#define ST_PRINTF(f, a) __attribute__((format(__MINGW_PRINTF_FORMAT, f, a)))
#else
#define ST_PRINTF(f, a) __attribute__((format(printf, f, a)))
#endif

#endif
