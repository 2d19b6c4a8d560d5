/*
 * `systrace --target=linux` where the tool is not built for Linux: host
 * tracing reads the Linux kernel's tracefs (agents/linux/), which no other
 * system has.  Says so, as a usage error.
 */
#include <stdio.h>

#include "cli.h"
#include "commands.h"
#include "lib/plat.h"

int cmd_linux(const struct st_options *o)
{
    (void)o;
    fprintf(stderr, "systrace: --target=linux traces the Linux kernel of this machine and "
                    "needs Linux; this build runs on " PLAT_NAME " (trace an Android "
                    "device instead, the default target)\n");
    return EXIT_USAGE;
}
