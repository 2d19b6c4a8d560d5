/*
 * --launch --runs=N: one summary of every run (runsum.c).  After each run
 * its startups are taken from that run's summary; at the end, with
 * --summary FILE, FILE holds runs[] (each run's trace and startups) and
 * startups[]: the launched package's startup as the median of the runs
 * (each number), with "min" and "max" beside; the terminal gets one line
 * "Startup of PKG (TYPE) over N runs: median X ms, min Y, max Z" (time
 * to the first frame).
 */
#ifndef SYSTRACE_RUNSUM_H
#define SYSTRACE_RUNSUM_H

#include "formats/summary/summary.h"

struct runsum;

/* pkg: the launched package (--launch's PKG, before any /ACTIVITY). */
struct runsum *runsum_new(const char *launch);
void runsum_free(struct runsum *r);
/* Run k's startups from its finished summary (NULL: none); trace: its
 * output file.  ST_OK or ST_ENOMEM. */
enum st_err runsum_add(struct runsum *r, const char *trace, const struct summary *s);
/* The line on stdout (show), the JSON to path (NULL: none).  An exit
 * code (cli.h). */
int runsum_commit(const struct runsum *r, const char *path, int show);

#endif
