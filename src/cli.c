/* Placeholder until the option table lands.
 * TEMPORARY (method branch): dispatches the method-trace options so the
 * e2e tests can run before the lead wires them into the real CLI:
 *   --method-profile FILE [--method-profile-format text|tsv]
 *   --call-graph OUT FILE [--call-graph-threshold PCT]
 *   --method-json OUT FILE            (trace-event JSON, test aid)
 *   --method-clock default|cpu|wall */
#include "cli.h"

#include <stdio.h>
#include <string.h>

#include "mtrace_cli.h"

int cli_main(int argc, char **argv)
{
    struct mtrace_cli_opts o;
    int mode = 0;
    mtrace_cli_defaults(&o);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--method-profile") == 0 && v) {
            mode = 1;
            o.input = argv[++i];
        } else if (strcmp(a, "--method-profile-format") == 0 && v) {
            if (mtrace_cli_parse_fmt(argv[++i], &o.fmt) != 0)
                goto usage;
        } else if (strcmp(a, "--method-clock") == 0 && v) {
            if (mtrace_cli_parse_clock(argv[++i], &o.clock) != 0)
                goto usage;
        } else if ((strcmp(a, "--call-graph") == 0 ||
                    strcmp(a, "--method-json") == 0) && v) {
            mode = a[2] == 'c' ? 2 : 3;
            o.output = argv[++i];
        } else if (a[0] != '-' && !o.input) {
            o.input = a;
        } else if (strcmp(a, "--call-graph-threshold") == 0 && v) {
            if (mtrace_cli_parse_threshold(argv[++i], &o.threshold) != 0)
                goto usage;
        } else {
            goto usage;
        }
    }
    if (!o.input)
        goto usage;
    if (mode == 1)
        return mtrace_cli_profile(&o);
    if (mode == 2)
        return mtrace_cli_callgraph(&o);
    if (mode == 3)
        return mtrace_cli_json(&o);
usage:
    fprintf(stderr, "systrace: not implemented yet\n");
    return EXIT_USAGE;
}
