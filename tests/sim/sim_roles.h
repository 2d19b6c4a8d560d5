/*
 * Trace markers by thread role (sim_roles.c), used by the generator.
 */
#ifndef ADBSIM_SIM_ROLES_H
#define ADBSIM_SIM_ROLES_H

#include <stddef.h>

#include "sim_ps.h"

#define SIM_MARKS_MAX 48
#define SIM_COUNTER_LEN 24

struct sim_marks {
    const char *names[SIM_MARKS_MAX];   /* B|pid|name slices */
    size_t nnames;
    const char *counter;                /* C|pid|counter|value, or NULL */
    char counter_buf[SIM_COUNTER_LEN];  /* storage for VSYNC-<comm> */
    const char *async;                  /* S/F|pid|async|cookie, or NULL */
};

/* tags: the enabled userspace categories, NULL-terminated (may be NULL). */
void sim_role_marks(enum sim_role role, const char *comm,
                    const char *const *tags, struct sim_marks *out);

#endif
