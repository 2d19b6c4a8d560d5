/*
 * The user's side of the program: parse the command line, pick the job
 * (download the viewer, convert a file, list categories, capture live), print messages and map
 * failures to exit codes (cli.h).  Errors are one line:
 * `systrace: WHAT: what is wrong`.
 */
#include "cli.h"

#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "lib/debug.h"
#include "lib/plat.h"
#include "download.h"
#include "options.h"
#include "usage.h"

#ifndef SYSTRACE_VERSION
#define SYSTRACE_VERSION "0.1.0"
#endif

/* A per-CPU buffer above this is more kernel memory than a phone has
 * (-b 1g on 8 CPUs: 8 GB); Perfetto's UI offers at most 64 MB. */
#define SANE_BUF_KB (256 * 1024)

static void ignored(const char *what, const char *mode)
{
    fprintf(stderr, "systrace: warning: %s has no effect with %s and is ignored\n", what, mode);
}

/* Options that do nothing in the chosen mode are named (one line each);
 * converting a file onto itself is refused.  An exit code, or -1. */
static int check_modes(const struct st_options *o)
{
    if (o->pf_out && !o->from_file) {
        fprintf(stderr, "systrace: --output-format=perfetto (or -o NAME.perfetto-trace) cuts a "
                        "Perfetto trace given with --from-file; a live --perfetto capture keeps "
                        "the device's whole trace as OUT.perfetto-trace beside the page (cut it "
                        "afterwards with --from-file OUT.perfetto-trace --time-range=...)\n");
        return EXIT_USAGE;
    }
    if (o->from_file && !o->method_profile && !o->call_graph && !o->method_json) {
        if (o->output && strcmp(o->from_file, "-") &&
            plat_same_file(o->from_file, o->output)) {
            fprintf(stderr, "systrace: -o %s: that is the input file (--from-file %s), which "
                            "the %s would replace; name another output\n", o->output,
                    o->from_file, o->pf_out ? "piece" : o->json ? "JSON" : "page");
            return EXIT_USAGE;
        }
        if (!o->default_categories)
            ignored("categories (the file holds what was traced)", "--from-file");
        if (o->nserials)
            ignored("-e", "--from-file");
        if (o->stream)
            ignored("--stream", "--from-file");
    }
    if (o->app_profile && o->target == TARGET_LINUX && !o->from_file)
        ignored("--app-profile (it method-traces an Android app)", "--target=linux");
    if (o->buf_kb > SANE_BUF_KB)
        fprintf(stderr, "systrace: warning: -b %d KB per CPU is more kernel memory than a "
                        "device has (on 8 CPUs, %.1f GB); 64mb per CPU holds minutes of a busy "
                        "trace\n", o->buf_kb, o->buf_kb * 8.0 / (1024 * 1024));
    return -1;
}

/* --rows converts many traces into one file: what makes a single page,
 * or a live capture, is refused.  An exit code, or -1. */
static int check_rows(const struct st_options *o)
{
    const char *why = NULL;
    if (!o->rows)
        return o->jobs ? (fputs("systrace: error: -J goes with --rows\n", stderr), EXIT_USAGE)
                       : -1;
    if (!o->from_file)
        return o->jobs ? (fputs("systrace: error: -J goes with --rows --from-file (a capture's "
                                "devices are traced at once anyway)\n", stderr), EXIT_USAGE)
                       : o->target == TARGET_LINUX
                       ? (fputs("systrace: error: --rows of a capture reads Android devices; "
                                "for this machine's trace use --from-file\n", stderr), EXIT_USAGE)
                       : -1;    /* a capture's rows: cmd_live */
    if (o->output || o->json || o->summary || o->trace_events)
        why = "--rows writes the rows alone; -o, -j, --summary and --trace-events are for "
              "one trace";
    else if (o->method_profile || o->call_graph || o->method_json)
        why = "--rows reads traces, not method traces";
    if (!why)
        return -1;
    fprintf(stderr, "systrace: error: %s\n", why);
    return EXIT_USAGE;
}

int cli_main(int argc, char **argv)
{
    struct st_options o;
    char err[512] = "";
    st_debug_init();
    if (argc > 1 && !strcmp(argv[1], "compare"))
        return cmd_compare(argc - 1, argv + 1);
    if (options_parse(&o, argc, argv, err, sizeof(err))) {
        if (!o.bad_file)    /* a file's content is no usage error */
            fputs("Usage: systrace [options] [category1 [category2 ...]]\n\n", stderr);
        fprintf(stderr, "systrace: error: %s\n", err);
        options_free(&o);
        return EXIT_USAGE;
    }
    int rc = o.show_help || o.show_version ? -1 : check_rows(&o);
    if (rc < 0 && !o.show_help && !o.show_version && !(o.rows && o.from_file))
        rc = check_modes(&o);
    if (rc >= 0) {
        /* refused: check_modes said why */
    } else if (o.show_help) {
        usage_print(stdout);
        rc = EXIT_OK;
    } else if (o.show_version) {
        printf("systrace %s\n", SYSTRACE_VERSION);
        rc = EXIT_OK;
    } else if (o.update_viewer) {
        rc = cmd_update_viewer(&o);
    } else if (o.method_profile || o.call_graph || o.method_json) {
        rc = cmd_method(&o);
    } else if (o.rows && o.from_file) {
        rc = cmd_rows(&o);
    } else if (o.from_file) {
        rc = cmd_from_file(&o);
    } else {
        rc = cmd_live(&o);
    }
    options_free(&o);
    return rc;
}
