/*
 * Method-trace commands: --method-profile (dmtracedump's profile),
 * --call-graph (dmtracedump -g), --method-json (trace-event JSON).  The
 * input is the profile option's value, else --from-file, else the one
 * positional argument.  The work is done by src/mtrace_cli.c.
 */
#include <stdio.h>

#include "cli.h"
#include "commands.h"
#include "mtrace_cli.h"

static int usage(const char *msg, const char *val)
{
    fprintf(stderr, "Usage: systrace [options] [category1 [category2 ...]]\n\n"
                    "systrace: error: %s: '%s'\n", msg, val);
    return EXIT_USAGE;
}

int cmd_method(const struct st_options *o)
{
    struct mtrace_cli_opts m;
    mtrace_cli_defaults(&m);
    if (o->method_profile_format && mtrace_cli_parse_fmt(o->method_profile_format, &m.fmt))
        return usage("--method-profile-format must be text or tsv", o->method_profile_format);
    if (o->method_clock && mtrace_cli_parse_clock(o->method_clock, &m.clock))
        return usage("--method-clock must be default, cpu or wall", o->method_clock);
    if (o->call_graph_threshold &&
        mtrace_cli_parse_threshold(o->call_graph_threshold, &m.threshold))
        return usage("--call-graph-threshold must be a percentage from 0 to 100",
                     o->call_graph_threshold);
    m.input = o->method_profile ? o->method_profile
              : o->from_file    ? o->from_file
              : o->nargs == 1   ? o->args[0] : NULL;
    if (!m.input || (o->method_profile && o->nargs)) {
        fprintf(stderr, "Usage: systrace [options] [category1 [category2 ...]]\n\n"
                        "systrace: error: name one method trace (.trace file)\n");
        return EXIT_USAGE;
    }
    if (o->method_profile) {
        m.output = o->output;
        return mtrace_cli_profile(&m);
    }
    if (o->call_graph) {
        m.output = o->call_graph;
        return mtrace_cli_callgraph(&m);
    }
    m.output = o->method_json;
    return mtrace_cli_json(&m);
}
