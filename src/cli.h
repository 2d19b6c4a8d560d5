/* Command line: parse options, dispatch, map errors to exit codes. */
#ifndef SYSTRACE_CLI_H
#define SYSTRACE_CLI_H

/* Exit codes (documented in the man page and README). */
enum {
    EXIT_OK = 0,
    EXIT_ERROR = 1,     /* the run failed; no output file was written */
    EXIT_USAGE = 2,     /* bad command line */
    EXIT_PARTIAL = 3,   /* output written, but the input was truncated */
};

int cli_main(int argc, char **argv);

#endif
