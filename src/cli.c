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
#include "download.h"
#include "options.h"
#include "usage.h"

#ifndef SYSTRACE_VERSION
#define SYSTRACE_VERSION "0.1.0"
#endif

int cli_main(int argc, char **argv)
{
    struct st_options o;
    char err[512] = "";
    st_debug_init();
    if (options_parse(&o, argc, argv, err, sizeof(err))) {
        fprintf(stderr, "Usage: systrace [options] [category1 [category2 ...]]\n\n"
                        "systrace: error: %s\n", err);
        options_free(&o);
        return EXIT_USAGE;
    }
    int rc;
    if (o.show_help) {
        usage_print(stdout);
        rc = EXIT_OK;
    } else if (o.show_version) {
        printf("systrace %s\n", SYSTRACE_VERSION);
        rc = EXIT_OK;
    } else if (o.update_viewer) {
        rc = cmd_update_viewer(&o);
    } else if (o.method_profile || o.call_graph || o.method_json) {
        rc = cmd_method(&o);
    } else if (o.from_file) {
        rc = cmd_from_file(&o);
    } else {
        rc = cmd_live(&o);
    }
    options_free(&o);
    return rc;
}
