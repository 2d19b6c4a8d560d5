/* Command line: parse options, dispatch, map errors to exit codes. */
#ifndef SYSTRACE_CLI_H
#define SYSTRACE_CLI_H

/* Exit codes (documented in the man page and README). */
enum {
    EXIT_OK = 0,
    EXIT_ERROR = 1,     /* the run failed; no output file was written */
    EXIT_USAGE = 2,     /* bad command line */
    EXIT_PARTIAL = 3,   /* output written, but the input was truncated */
    EXIT_NO_VERDICT = 4,    /* compare: an input could not be read (or the
                             * report written): told apart from a gate (1) */
};

int cli_main(int argc, char **argv);

#endif
