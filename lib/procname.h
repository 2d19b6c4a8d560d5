/*
 * Does a process's name, as a trace holds it, answer to the name a user
 * asked for (--process=NAME)?  The one rule of both cutters (pages:
 * formats/piece; Perfetto traces: formats/perfetto).
 */
#ifndef SYSTRACE_PROCNAME_H
#define SYSTRACE_PROCNAME_H

#include <stddef.h>

/* name[0, n) matches want whole, or as the kernel cuts a comm to 15
 * bytes (its first 15; Android's apps keep their last 15:
 * "ndroid.systemui" for com.android.systemui); and so does its last path
 * component ("/system/bin/surfaceflinger"). */
int procname_matches(const char *name, size_t n, const char *want);

#endif
