/* The jobs the CLI dispatches to; each returns an exit code (cli.h). */
#ifndef SYSTRACE_COMMANDS_H
#define SYSTRACE_COMMANDS_H

#include <stdio.h>

#include "options.h"
#include "formats/html/viewer.h"

/* --from-file: convert a saved trace. */
int cmd_from_file(const struct st_options *o);
/* --from-file with a Perfetto trace as the output: a piece, or pieces
 * (cmd_pfcut.c). */
int cmd_pf_cut(const struct st_options *o);
/* --rows: many traces' metrics as rows (cmd_rows.c). */
int cmd_rows(const struct st_options *o);

/* `systrace compare A... -- B...` (argv[0] is "compare"); its own
 * options and help (cmd_compare.c). */
int cmd_compare(int argc, char **argv);
void compare_usage(FILE *f);

/* --method-profile, --call-graph, --method-json on a .trace file. */
int cmd_method(const struct st_options *o);

/* Live capture (or -l) on the chosen target. */
int cmd_live(const struct st_options *o);

/* --target=linux: capture (or -l) on this machine's kernel. */
int cmd_linux(const struct st_options *o);

/* "Wrote trace HTML file: file:///abs/path" on stdout unless quiet. */
void report_written(const struct st_options *o, const char *path);

/* --open: show the written page in a browser; a warning when none can
 * be started (never an error). */
void open_result(const struct st_options *o, const char *path);

/* --open=perfetto of one file (from-file: its Perfetto input or the
 * output); waits until ui.perfetto.dev fetched it or the timeout. */
void open_in_perfetto(const struct st_options *o, const char *path, int sigfd);

/* Load the viewer for HTML output, printing any error; 0 on success. */
int open_viewer(const struct st_options *o, struct viewer *v);

/* --trace-events FILE: open it and hang its converter on w's tee (*t
 * stays NULL without the option); prints its error, 0 on success. */
struct tevents;
struct tracewriter;
int open_trace_events(const struct st_options *o, struct tracewriter *w, struct tevents **t);
/* After the result was written: finish FILE, report; an exit code. */
int commit_trace_events(const struct st_options *o, struct tevents *t);
/* A note on stderr when huge ftrace text was split into blocks. */
void report_splits(const struct st_options *o, const struct tracewriter *w);

#endif
