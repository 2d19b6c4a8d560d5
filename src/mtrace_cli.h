/*
 * Command-line entry points for method traces: --method-profile,
 * --call-graph and a trace-event JSON file.  They take already parsed
 * options, print errors as one line "systrace: FILE: what is wrong" (and
 * warnings as "systrace: FILE: warning: ..."), write output files through
 * a temporary file renamed into place, and return an exit code from cli.h:
 * EXIT_OK, EXIT_ERROR (nothing written), EXIT_PARTIAL (written, but the
 * input was cut short).
 */
#ifndef SYSTRACE_MTRACE_CLI_H
#define SYSTRACE_MTRACE_CLI_H

#include "formats/mtrace/mtrace.h"

struct mtrace_cli_opts {
    const char *input;              /* the .trace file */
    const char *output;             /* NULL or "-": stdout (not for graphs) */
    enum mtrace_fmt fmt;            /* --method-profile-format text|tsv */
    enum mtrace_clock clock;        /* --method-clock default|cpu|wall */
    double threshold;               /* --call-graph-threshold PCT (20) */
    const struct mtrace_json_opts *json;    /* NULL: defaults */
};

/* Defaults: text, first clock column, threshold 20. */
void mtrace_cli_defaults(struct mtrace_cli_opts *o);

int mtrace_cli_profile(const struct mtrace_cli_opts *o);
int mtrace_cli_callgraph(const struct mtrace_cli_opts *o);
int mtrace_cli_json(const struct mtrace_cli_opts *o);

/* Option values; 0 on success, -1 (nothing printed) if invalid. */
int mtrace_cli_parse_fmt(const char *s, enum mtrace_fmt *out);
int mtrace_cli_parse_clock(const char *s, enum mtrace_clock *out);
int mtrace_cli_parse_threshold(const char *s, double *out);

#endif
