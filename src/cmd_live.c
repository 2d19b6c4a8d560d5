/* Live capture: placeholder until the adb client lands. */
#include <stdio.h>

#include "cli.h"
#include "commands.h"

int cmd_live(const struct st_options *o)
{
    (void)o;
    fprintf(stderr, "systrace: live capture is not available yet; use --from-file\n");
    return EXIT_ERROR;
}
