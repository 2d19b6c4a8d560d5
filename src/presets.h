/*
 * Presets: named sets of categories for what people trace most, as
 * Perfetto's UI offers them (--preset=frames, startup, power).  A preset
 * adds its categories to the explicit ones (duplicates dropped); its
 * buffer size applies only when -b is not given.  Categories a device
 * lacks are dropped with the usual warning, like explicit ones.
 */
#ifndef SYSTRACE_PRESETS_H
#define SYSTRACE_PRESETS_H

#include <stdio.h>

struct preset {
    const char *name;
    const char *summary;        /* one line for -l and --help */
    const char *categories;     /* comma list */
    int buf_kb;                 /* default -b; 0: the usual default */
};

/* The preset of this name, or NULL. */
const struct preset *preset_find(const char *name);

/* NULL-terminated list, in the order shown to users. */
extern const struct preset *const st_presets[];

/* The -l section: one line per preset with its categories. */
void presets_print(FILE *out);

#endif
