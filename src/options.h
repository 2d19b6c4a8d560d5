/*
 * The command line, parsed into one struct.  Spelling and meaning follow
 * catapult's systrace (catapult-systrace.md §1): -o -t -b -j -e -l -k -a,
 * --target --timeout --collection-timeout --atrace-categories
 * --ftrace-categories --no-compress --from-file, positional categories.
 * Our additions are listed in --help and the man page.
 */
#ifndef SYSTRACE_OPTIONS_H
#define SYSTRACE_OPTIONS_H

#include <stddef.h>

#include "agents/capture.h"
#include "formats/piece/piece.h"

struct preset;

#define ST_DEFAULT_CATEGORIES                                               \
    "am,binder_driver,camera,dalvik,freq,gfx,hal,idle,input,memory,"        \
    "memreclaim,res,sched,sync,view,webview,wm,workq"

enum st_transport { TRANSPORT_AUTO, TRANSPORT_SERVER, TRANSPORT_DIRECT };

/* Devices one run traces at once (-e ... -e, --all-devices). */
#define ST_MAX_DEVICES 64

struct st_options {
    const char *output;         /* -o; NULL: derived */
    int time_s;                 /* -t rounded up to seconds; -1: not given */
    long time_ms;               /* -t as given (units.h); -1: not given */
    int buf_kb;                 /* -b; -1: not given */
    int json;                   /* -j */
    const char *serial;         /* the first -e, or $ANDROID_SERIAL */
    const char *serials[ST_MAX_DEVICES];   /* every -e, in order */
    size_t nserials;
    int all_devices;            /* --all-devices */
    enum capture_target target;
    enum st_transport transport;    /* --transport; default auto */
    int timeout_s;              /* --timeout; -1: none */
    int collection_timeout_s;   /* --collection-timeout; -1: none */
    int list_categories;        /* -l */
    const char *kfuncs;         /* -k */
    const char *apps;           /* -a */
    int compress;               /* !--no-compress */
    const char *from_file;
    const char *viewer;         /* --viewer */
    const char *viewer_url;     /* --viewer-url or $SYSTRACE_VIEWER_URL */
    int update_viewer;          /* --update-viewer */
    const char *trace_events;   /* --trace-events FILE */
    const char *summary;        /* --summary FILE */
    const char *rows;           /* --rows FILE */
    int jobs;                   /* -J N; 0: one per CPU */
    struct piece_spec piece;    /* --time-range, --process(-and-deps), --split */
    int pf_out;                 /* --output-format=perfetto or -o *.perfetto-trace */
    int format_set;             /* --output-format was given */
    const char *ftrace_categories;
    int quiet;                  /* -q: only errors */
    /* method traces */
    const char *method_profile;         /* --method-profile FILE */
    const char *method_profile_format;  /* text|tsv */
    const char *method_clock;           /* default|cpu|wall */
    const char *call_graph;             /* --call-graph OUT.dot (input positional) */
    const char *call_graph_threshold;   /* PCT */
    const char *method_json;            /* --method-json OUT (input positional) */
    const char *app_profile;            /* --app-profile PROCESS (live capture) */
    int app_profile_sampling;           /* --app-profile-sampling US; 0: instrumented */
    int stream;                 /* --stream: read the trace while tracing */
    const char *launch;         /* --launch PKG[/ACTIVITY] */
    int launch_mode;            /* LAUNCH_COLD, _WARM, _HOT (capture.h) */
    int runs;                   /* --runs N; 0: not given */
    int perfetto;               /* --perfetto: record with the device's perfetto */
    const char *perfetto_config;    /* --perfetto-config FILE */
    char *pf_config;            /* its bytes (malloc'd), checked */
    size_t pf_config_len;
    int bad_file;               /* the error is about a file named, not the usage */
    int open;                   /* --open or $SYSTRACE_OPEN: 0, BROWSER_PAGE, _PERFETTO */
    const struct preset *presets[8];    /* --preset, in order */
    size_t npresets;
    int preset_buf_kb;          /* the largest preset -b (used without -b) */
    unsigned pf_sources;        /* the presets' Perfetto data sources (PF_SRC_*) */
    int show_help, show_version;
    /* categories: positional, or --atrace-categories / --ftrace-categories,
     * each possibly a comma list; joined and split on ',' when used */
    char **categories;
    size_t ncategories;
    int default_categories;     /* none named: catapult's default list */
    char *catbuf;               /* owns the split strings */
    char **args;                /* positional arguments as given */
    size_t nargs;
};

/* Parse argv.  Returns 0, or 2 with a message in err (catapult's wording
 * where it has one) for a bad command line. */
int options_parse(struct st_options *o, int argc, char **argv, char *err, size_t errlen);
void options_free(struct st_options *o);

/* Output path: -o, else (from-file) the input minus its extension, else
 * "trace"; plus .html or .json.  Caller frees. */
char *options_output_path(const struct st_options *o);

/* The part of the command line a capture's agents see. */
void options_capture(const struct st_options *o, struct capture_opts *c);

#endif
