/* The agents, in the order their parts appear in the result (catapult's
 * order; the process dump goes before the ftrace part because Perfetto
 * reads only what precedes the end of the first ftrace block). */
#include "agent.h"

const struct agent_ops *const st_agents[] = {
    &procdump_agent,
    &hostproc_agent,
    &atrace_agent,
    &appprofile_agent,     /* after atrace: aligns with its text */
    &launch_agent,         /* after atrace: launches while it traces */
    &ftrace_agent,
    &controller_agent,
    NULL,
};
