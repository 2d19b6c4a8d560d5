/*
 * The host agents (agents/linux/) where there is no Linux kernel to trace
 * (Windows): they never apply, so a capture is as if they were not
 * registered.  --target=linux itself is refused earlier (src/cmd_linux_none.c).
 */
#include "agent.h"

#include <stddef.h>

static enum st_err not_here(struct capture *c, void **state)
{
    (void)c;
    *state = NULL;
    return ST_OK;
}

const struct agent_ops hostproc_agent = {.name = "host process data", .create = not_here};
const struct agent_ops ftrace_agent = {.name = "ftrace", .create = not_here};
