/*
 * What each thread role of the simulated device writes to trace_marker
 * for the enabled atrace categories: slice names (B/E), a counter (C)
 * and an async slice (S/F).  Userspace categories no role claims are
 * written by binder threads, so every enabled tag shows up somewhere.
 */
#include "sim_roles.h"

#include <stdio.h>
#include <string.h>

struct slices {
    enum sim_role role;
    const char *cat;
    const char *const *names;
    const char *counter;        /* NULL: none; "" : VSYNC-<comm> */
    const char *async;
};

static const char *const n_sf[] = {"onMessageReceived", "handleMessageRefresh",
    "composite", "handleTransaction", "latchBuffers", "commit", NULL};
static const char *const n_re[] = {"REThreaded::drawLayers", "drawLayers",
    "flush", "waitFence", NULL};
static const char *const n_view[] = {"Choreographer#doFrame", "traversal",
    "measure", "layout", "draw", "Record View#draw()", "animation", NULL};
static const char *const n_input[] = {"deliverInputEvent", "input",
    "processInputEvent", NULL};
static const char *const n_am[] = {"activityStart", "activityResume",
    "bindApplication", "updateOomAdj", "startProcess", NULL};
/* an app's own am slices: none of a launch's (sim_launch.c writes those
 * when something launches, as the platform does) */
static const char *const n_am_app[] = {"activityPause", "activityStop",
    "handleBindService", NULL};
static const char *const n_res[] = {"Theme::ApplyStyle", "AssetManager::GetBag",
    "ResourcesImpl#loadDrawable", NULL};
static const char *const n_render[] = {"DrawFrame", "syncFrameState",
    "flush commands", "queueBuffer", "dequeueBuffer",
    "eglSwapBuffersWithDamageKHR", NULL};
static const char *const n_gc[] = {"HeapTaskDaemon", "concurrent copying GC",
    "ProcessMarkStack", "Sweep", NULL};
static const char *const n_wm[] = {"performSurfacePlacement",
    "applySurfaceChanges", "WindowAnimator", "closeSurfaceTransaction", NULL};
static const char *const n_dispatch[] = {"dispatchMotionLocked",
    "processEventsLocked", "notifyMotion", NULL};
static const char *const n_aidl[] = {
    "AIDL::java::IActivityManager::getRunningAppProcesses::server",
    "AIDL::java::IPackageManager::getPackageInfo::server", NULL};
static const char *const n_binder_other[] = {"binder transaction",
    "HIDL::IComposerClient::executeCommands_2_4::server", NULL};
static const char *const n_audio[] = {"AudioFlinger::threadLoop", "mix",
    "write", NULL};
static const char *const n_ss[] = {"SystemServer:startBootPhase",
    "PowerManagerService.updatePowerState", NULL};

static const struct slices slice_table[] = {
    {ROLE_SF, "gfx", n_sf, "HW_VSYNC_0", NULL},
    {ROLE_SF_VSYNC, "gfx", NULL, "", NULL},
    {ROLE_RENDER_ENGINE, "gfx", n_re, NULL, NULL},
    {ROLE_UI, "view", n_view, NULL, NULL},
    {ROLE_UI, "input", n_input, NULL, "deliverInputEvent"},
    {ROLE_UI, "am", n_am_app, NULL, NULL},
    {ROLE_UI, "res", n_res, NULL, NULL},
    {ROLE_UI, "webview", n_view, NULL, NULL},
    {ROLE_RENDER, "gfx", n_render, NULL, NULL},
    {ROLE_RENDER, "view", n_render, NULL, NULL},
    {ROLE_GC, "dalvik", n_gc, NULL, NULL},
    {ROLE_AM, "am", n_am, NULL, "appTransition: com.android.launcher3"},
    {ROLE_AM, "ss", n_ss, NULL, NULL},
    {ROLE_AM, "pm", n_am, NULL, NULL},
    {ROLE_AM, "power", n_ss, NULL, NULL},
    {ROLE_WM, "wm", n_wm, NULL, NULL},
    {ROLE_INPUT, "input", n_dispatch, "iq", NULL},
    {ROLE_BINDER, "aidl", n_aidl, NULL, NULL},
    {ROLE_BINDER, "*", n_binder_other, NULL, NULL},
    {ROLE_AUDIO, "audio", n_audio, "framesReady", NULL},
    {ROLE_AUDIO, "hal", n_binder_other, NULL, NULL},
};

static int tag_enabled(const char *const *tags, const char *cat)
{
    for (const char *const *t = tags; t && *t; t++)
        if (!strcmp(*t, cat))
            return 1;
    return 0;
}

/* Userspace tags no role claims explicitly go to binder threads. */
static int unclaimed_tag(const char *const *tags)
{
    for (const char *const *t = tags; t && *t; t++) {
        int claimed = 0;
        for (size_t i = 0; i < sizeof(slice_table) / sizeof(slice_table[0]);
             i++)
            if (!strcmp(slice_table[i].cat, *t))
                claimed = 1;
        if (!claimed)
            return 1;
    }
    return 0;
}

void sim_role_marks(enum sim_role role, const char *comm,
                    const char *const *tags, struct sim_marks *a)
{
    memset(a, 0, sizeof(*a));
    for (size_t i = 0; i < sizeof(slice_table) / sizeof(slice_table[0]); i++) {
        const struct slices *s = &slice_table[i];
        if (s->role != role)
            continue;
        if (!strcmp(s->cat, "*") ? !unclaimed_tag(tags) : !tag_enabled(tags, s->cat))
            continue;
        for (const char *const *n = s->names; n && *n; n++)
            if (a->nnames < sizeof(a->names) / sizeof(a->names[0]))
                a->names[a->nnames++] = *n;
        if (s->counter && !a->counter) {
            if (*s->counter) {
                a->counter = s->counter;
            } else {
                snprintf(a->counter_buf, sizeof(a->counter_buf), "VSYNC-%s",
                         comm);
                a->counter = a->counter_buf;
            }
        }
        if (s->async && !a->async)
            a->async = s->async;
    }
}
