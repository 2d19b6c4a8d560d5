/*
 * The host's processes and threads read straight from /proc (no ps
 * binary), written in the form the Android path gets from toybox, so the
 * classic viewer and Perfetto name processes and threads the same way:
 *
 *   ps -A -o USER,PID,PPID,VSIZE,RSS,WCHAN,ADDR=PC,S,NAME,COMM
 *   ps -AT -o USER,PID,TID,CMD
 *
 * with toybox's column widths and padding for non-tty output.  NAME is
 * the base name of argv[0]'s first word ("[comm]" for kernel threads, any
 * blank in it made '_'), so it is one token as both parsers expect; COMM
 * is the executable's path.
 * Processes that exit during the walk are skipped.
 */
#ifndef SYSTRACE_HOSTPROC_H
#define SYSTRACE_HOSTPROC_H

#include "lib/dynbuf.h"
#include "lib/error.h"

/* Both tables (process and thread) from the /proc at proc_root (NULL:
 * "/proc"); `tasks`, when not NULL, gets `/proc/PID/task/TID` items
 * separated by spaces, the listing tgid_map_parse() reads. */
enum st_err hostproc_snapshot(const char *proc_root, struct dynbuf *ps, struct dynbuf *tasks);

#endif
