/*
 * Presets: named sets of categories for what people trace most, as
 * Perfetto's UI offers them (--preset=frames, startup, power).  A preset
 * adds its categories to the explicit ones (duplicates dropped); its
 * buffer size applies only when -b is not given.  Categories a device
 * lacks are dropped with the usual warning, like explicit ones.  With
 * --perfetto a preset also asks for the Perfetto data sources its goal
 * needs (those the device's SDK lacks are named and left out).
 */
#ifndef SYSTRACE_PRESETS_H
#define SYSTRACE_PRESETS_H

#include <stdio.h>

#include "agents/capture.h"

struct preset {
    const char *name;
    const char *summary;        /* one line for -l and --help */
    const char *categories;     /* comma list */
    int buf_kb;                 /* default -b; 0: the usual default */
    unsigned pf_sources;        /* --perfetto: data sources beyond ftrace (PF_SRC_*) */
    const char *pf_summary;     /* what those are, for -l */
};

/* The preset of this name, or NULL. */
const struct preset *preset_find(const char *name);

/* NULL-terminated list, in the order shown to users. */
extern const struct preset *const st_presets[];

/* The -l section: one line per preset with its categories. */
void presets_print(FILE *out);

#endif
