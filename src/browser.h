/*
 * --open: show the written page in the user's browser, as Perfetto's
 * record script does.  The browser is $BROWSER (a ':'-separated list, each
 * entry a command, "%s" replaced by the URL and "%%" by "%", as
 * sensible-browser reads it; without %s the URL is added at the end), else
 * xdg-open, else Debian's sensible-browser; on Windows (after $BROWSER,
 * ';'-separated there, run by cmd.exe) the shell's default handler.  The file:// URL is
 * percent-encoded (a page named a#b%c.html opens itself), which also
 * leaves nothing in it a shell would interpret.  It is started
 * detached (its own session, stdio on /dev/null, never waited for), so
 * systrace returns at once and a browser that stays open never holds the
 * terminal; one that fails within 1.5 s (not found, xdg-open without a
 * method) counts as not started and the next is tried.  No browser is
 * never an error for the capture: the caller prints the warning this
 * leaves in `warn`, naming what failed.
 */
#ifndef SYSTRACE_BROWSER_H
#define SYSTRACE_BROWSER_H

#include <stddef.h>

/* 0: a browser was started with file://ABSPATH; -1: none could be, with
 * one line in warn. */
int browser_open(const char *path, char *warn, size_t warnlen);

/* "file://ABSPATH" for messages (file:///C:/... for a Windows path). */
void browser_file_link(const char *path, char *out, size_t n);

/* The same with any URL (the first browser that starts); 0 or -1 with one
 * line in warn. */
int browser_open_url(const char *url, char *warn, size_t warnlen);

/* What to open: --open's value (0: nothing), else $SYSTRACE_OPEN's
 * ("perfetto", or anything other than 0 for the page). */
enum { BROWSER_PAGE = 1, BROWSER_PERFETTO = 2 };
int browser_wanted(int flag);

#endif
