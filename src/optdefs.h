/*
 * The one table of systrace's command-line options.  Parsing (options.c),
 * `--help` (usage.c) and the man page's OPTIONS section (scripts/genman.c,
 * at build time) are all made from it, so an option cannot be parsed yet
 * missing from the help or the man page, and a test checks that every
 * entry appears in both.  Data only: this header includes nothing of ours.
 *
 * The table itself is in optdefs.c.
 *
 * Text conventions: `help` is one plain sentence or two for --help; `man`
 * adds what a reader of the manual needs beyond it (plain text too; the
 * generator escapes it for roff).  Entries flagged OPTF_HIDDEN are parsed
 * but listed nowhere (catapult's deprecated spellings).
 */
#ifndef SYSTRACE_OPTDEFS_H
#define SYSTRACE_OPTDEFS_H

enum opt_id {
    OPT_TARGET = 256, OPT_TIMEOUT, OPT_COLL_TIMEOUT, OPT_ATRACE_CATS, OPT_NO_COMPRESS,
    OPT_FROM_FILE, OPT_FTRACE_CATS, OPT_VIEWER, OPT_TRANSPORT, OPT_LINK_ASSETS, OPT_ASSET_DIR,
    OPT_VERSION, OPT_MPROFILE, OPT_MFORMAT, OPT_MCLOCK, OPT_CALLGRAPH, OPT_CGTHRESH,
    OPT_MJSON, OPT_APPPROF, OPT_APPSAMPLE, OPT_STREAM, OPT_VIEWER_URL, OPT_UPDATE_VIEWER,
    OPT_TRACE_EVENTS, OPT_OPEN, OPT_PRESET, OPT_ALL_DEVICES, OPT_SUMMARY,
    OPT_PERFETTO, OPT_PERFETTO_CONFIG, OPT_LAUNCH, OPT_LAUNCH_MODE, OPT_RUNS, OPT_ROWS,
    OPT_TIME_RANGE, OPT_PROCESS, OPT_PROCESS_DEPS, OPT_SPLIT, OPT_OUTPUT_FORMAT,
};

enum opt_section { SEC_GENERAL, SEC_ATRACE, SEC_METHOD, SEC_FTRACE, SEC_VIEWER, SEC_COUNT };

#define OPTF_HIDDEN 1
#define OPTF_OPTARG 2     /* the argument may be left out: --name[=ARG] */

struct optdef {
    const char *lng;        /* long name without dashes, or NULL */
    int shrt;               /* short option letter, or 0 */
    const char *arg;        /* argument name, or NULL for a flag */
    int id;                 /* getopt_long's value (shrt when there is one) */
    enum opt_section sec;
    int flags;
    const char *help;
    const char *man;        /* more for the man page, or NULL */
};

extern const char *const opt_section_titles[SEC_COUNT];
extern const struct optdef st_optdefs[];
extern const unsigned st_noptdefs;

#endif
