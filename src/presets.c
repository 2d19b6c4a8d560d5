/* The preset table; see presets.h.  The category choices follow what
 * Perfetto's recording UI enables for the same goals, in atrace's names. */
#include "presets.h"

#include <string.h>

static const struct preset frames = {
    "frames", "jank and frame timing: UI thread, RenderThread, SurfaceFlinger, input",
    "gfx,input,view,webview,wm,am,hal,res,dalvik,sched,freq,idle,sync", 32768,
    PF_SRC_FRAMETIMELINE, "SurfaceFlinger's frame timeline (Android 12+)",
};
static const struct preset startup = {
    "startup", "app start-up: activity and window managers, binder, class loading, I/O",
    "am,wm,dalvik,view,gfx,res,pm,ss,binder_driver,binder_lock,sched,freq,idle,disk", 32768,
    PF_SRC_PROC_POLL | PF_SRC_FRAMETIMELINE | PF_SRC_PACKAGES,
    "process stats every second, frame timeline (Android 12+), packages list (Android 10+)",
};
static const struct preset power = {
    "power", "power and thermal: CPU frequency and idle states, wakeups, workqueues",
    "power,freq,idle,sched,workq,memreclaim,thermal", 0,
    PF_SRC_BATTERY | PF_SRC_POWER_RAILS,
    "battery counters (charge, capacity, current, voltage) and power rails (Android 10+)",
};

const struct preset *const st_presets[] = {&frames, &startup, &power, NULL};

const struct preset *preset_find(const char *name)
{
    for (int i = 0; st_presets[i]; i++)
        if (!strcmp(st_presets[i]->name, name))
            return st_presets[i];
    return NULL;
}

void presets_print(FILE *out)
{
    fputs("\nPresets (--preset=NAME, combinable with categories):\n", out);
    for (int i = 0; st_presets[i]; i++) {
        fprintf(out, "  %10s - %s\n  %10s   %s\n", st_presets[i]->name, st_presets[i]->summary,
                "", st_presets[i]->categories);
        if (st_presets[i]->pf_summary)
            fprintf(out, "  %10s   with --perfetto also: %s\n", "", st_presets[i]->pf_summary);
    }
}
