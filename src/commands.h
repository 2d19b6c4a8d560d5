/* The jobs the CLI dispatches to; each returns an exit code (cli.h). */
#ifndef SYSTRACE_COMMANDS_H
#define SYSTRACE_COMMANDS_H

#include "options.h"
#include "viewer.h"

/* --from-file: convert a saved trace. */
int cmd_from_file(const struct st_options *o);

/* --method-profile, --call-graph, --method-json on a .trace file. */
int cmd_method(const struct st_options *o);

/* Live capture (or -l) on the chosen target. */
int cmd_live(const struct st_options *o);

/* --target=linux: capture (or -l) on this machine's kernel. */
int cmd_linux(const struct st_options *o);

/* "Wrote trace HTML file: file:///abs/path" on stdout unless quiet. */
void report_written(const struct st_options *o, const char *path);

/* Load the viewer for HTML output, printing any error; 0 on success. */
int open_viewer(const struct st_options *o, struct viewer *v);

#endif
