/* `systrace --perfetto -l`; see pflist.h. */
#include "pflist.h"

#include "pfconfig.h"
#include "agents/android/probe.h"

#define MARK "[--perfetto: no root needed]"

/* The kernel categories the config records that atrace did not list,
 * in atrace's own line format, marked; how many. */
static size_t list_hidden(struct capture *c, const struct atrace_cats *listed)
{
    size_t shown = 0;
    const char *longname, *cat;
    for (size_t i = 0; (cat = pfconfig_kernel_category(i, &longname)); i++) {
        if (atrace_cats_has(listed, cat))
            continue;
        c->ui.note(c->ui.ctx, "  %10s - %s " MARK, cat, longname);
        shown++;
    }
    return shown;
}

enum st_err perfetto_list_categories(struct capture *c)
{
    if (c->root || c->sdk < 28)     /* atrace lists them all; or no perfetto */
        return device_list_categories(c);
    struct atrace_cats listed = {0};
    enum st_err e = device_print_categories(c, &listed);
    if (!e && list_hidden(c, &listed))
        c->ui.note(c->ui.ctx, "\nNOTE: categories marked " MARK " need adb root without "
                              "--perfetto: Perfetto's traced_probes records their kernel "
                              "events itself");
    if (!e)
        c->ui.note(c->ui.ctx, "\nNOTE: more categories may be available with adb root\n");
    atrace_cats_free(&listed);
    return e;
}
