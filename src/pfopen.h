/*
 * --open=perfetto: open traces in ui.perfetto.dev by serving each once
 * from http://127.0.0.1:9001/NAME, as Perfetto's record script does (see
 * pfopen.c).  $SYSTRACE_OPEN_PORT and $SYSTRACE_OPEN_TIMEOUT (seconds,
 * default 120) change the port and how long it waits.
 */
#ifndef SYSTRACE_PFOPEN_H
#define SYSTRACE_PFOPEN_H

#include <stddef.h>

/* Serve the files until each was fetched, the timeout, or stop_fd (-1:
 * none) is readable; open one browser tab per file.  Messages on stdout
 * (the URLs, the end) and stderr (warnings); never fails the run. */
void pfopen_serve(const char *const *paths, size_t n, int quiet, int stop_fd);

#endif
