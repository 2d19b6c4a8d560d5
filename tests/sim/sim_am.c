/*
 * `am profile start [--user U] [--sampling N] [--streaming] PROCESS FILE`
 * and `am profile stop [--user U] PROCESS`: method tracing of an app.
 * On stop the device writes FILE: a copy of the --method-trace host file,
 * or a tiny valid classic method trace (version 3, dual clock, one
 * thread, two methods; format in reference/method-trace-format.md).
 * PROCESS is a pid or a process name from the table (sim_ps.c).
 */
#include "sim_cmds.h"
#include "sim_ps.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct sim_proc *find_process(const char *what)
{
    uint64_t pid;
    if (!sim_parse_u64(what, &pid))
        return pid < 1000000 ? sim_proc_find((int)pid) : NULL;
    for (size_t i = 0; i < sim_proc_count(); i++)
        if (!strcmp(sim_proc_at(i)->name, what))
            return sim_proc_at(i);
    return NULL;
}

static void le16(unsigned char *p, unsigned v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
}

static void le32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

/* A classic v3 trace: main enters run(), run() calls work(), both exit. */
static int write_tiny_trace(struct sim_sink *out, const struct sim_proc *p,
                            uint64_t start_us, uint64_t elapsed_us)
{
    char keys[1024];
    int n = snprintf(keys, sizeof(keys),
        "*version\n3\ndata-file-overflow=false\nclock=dual\n"
        "elapsed-time-usec=%llu\nnum-method-calls=4\n"
        "clock-call-overhead-nsec=100\nvm=art\npid=%d\n"
        "*threads\n%d\tmain\n"
        "*methods\n"
        "0x4\tcom.example.sim.Main\trun\t()V\tMain.java\n"
        "0x8\tcom.example.sim.Main\twork\t(I)V\tMain.java\n"
        "*end\n", (unsigned long long)elapsed_us, p->pid, p->pid);
    if (n < 0 || (size_t)n >= sizeof(keys))
        return -1;
    unsigned char hdr[32] = {0};
    le32(hdr, 0x574F4C53u);
    le16(hdr + 4, 3);
    le16(hdr + 6, 32);
    for (int i = 0; i < 8; i++)
        hdr[8 + i] = (unsigned char)(start_us >> (8 * i));
    le16(hdr + 16, 14);
    static const struct { uint32_t method, cpu, wall; } ev[] = {
        {0x4, 0, 0}, {0x8, 10, 12}, {0x8 | 1, 40, 50}, {0x4 | 1, 45, 60},
    };
    unsigned char recs[4 * 14];
    for (int i = 0; i < 4; i++) {
        unsigned char *r = recs + 14 * i;
        le16(r, (unsigned)p->pid & 0xffff);
        le32(r + 2, ev[i].method);
        le32(r + 6, ev[i].cpu);
        le32(r + 10, ev[i].wall);
    }
    return sink_write(out, keys, (size_t)n) || sink_write(out, hdr, 32) ||
           sink_write(out, recs, sizeof(recs)) ? -1 : 0;
}

static int copy_host_file(struct sim_sink *out, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    char buf[65536];
    size_t n;
    int rc = 0;
    while (!rc && (n = fread(buf, 1, sizeof(buf), f)) > 0)
        rc = sink_write(out, buf, n);
    fclose(f);
    return rc;
}

static int profile_start(struct sh_cmd *c, const struct sim_proc *p,
                         const char *file)
{
    struct sim_device *dev = c->sh->dev;
    int rc = -1, busy = 0;
    pthread_mutex_lock(&dev->lock);
    for (int i = 0; i < SIM_MAX_PROFILES; i++)
        if (dev->profiles[i].active && dev->profiles[i].pid == p->pid)
            busy = 1;
    for (int i = 0; i < SIM_MAX_PROFILES && !busy && rc; i++) {
        struct sim_profile *s = &dev->profiles[i];
        if (!s->active) {
            s->active = 1;
            s->pid = p->pid;
            snprintf(s->file, sizeof(s->file), "%s", file);
            s->start_ns = sim_now_ns();
            rc = 0;
        }
    }
    pthread_mutex_unlock(&dev->lock);
    if (rc)
        sink_puts(c->err, "Error: profiling already active or too many "
                          "profiles\n");
    return rc ? 255 : 0;
}

static int profile_stop(struct sh_cmd *c, const struct sim_proc *p)
{
    struct sim_device *dev = c->sh->dev;
    struct sim_profile s = {0, 0, "", 0};
    pthread_mutex_lock(&dev->lock);
    for (int i = 0; i < SIM_MAX_PROFILES; i++)
        if (dev->profiles[i].active && dev->profiles[i].pid == p->pid) {
            s = dev->profiles[i];
            dev->profiles[i].active = 0;
        }
    pthread_mutex_unlock(&dev->lock);
    if (!s.active)
        return 0;   /* am is silent when nothing was profiling */
    struct sim_sink *out;
    if (sim_fs_open_write(dev->fs, s.file, 0, p->pid, &out))
        return 0;   /* the app fails to write; am does not report it */
    uint64_t now = sim_now_ns();
    if (dev->opt.method_trace)
        copy_host_file(out, dev->opt.method_trace);
    else
        write_tiny_trace(out, p, s.start_ns / 1000,
                         (now - s.start_ns) / 1000);
    if (out->close)
        out->close(out);
    return 0;
}

int sim_cmd_am(struct sh_cmd *c)
{
    if (c->argc < 3 || strcmp(c->argv[1], "profile")) {
        sink_puts(c->err, "usage: am profile start [--user U] [--sampling N] "
                          "PROCESS FILE\n       am profile stop PROCESS\n");
        return 255;
    }
    int start = !strcmp(c->argv[2], "start");
    if (!start && strcmp(c->argv[2], "stop")) {
        sink_printf(c->err, "Error: unknown profile command '%s'\n",
                    c->argv[2]);
        return 255;
    }
    const char *pos[2] = {NULL, NULL};
    int npos = 0;
    for (int i = 3; i < c->argc; i++) {
        const char *a = c->argv[i];
        if (!strcmp(a, "--user") || !strcmp(a, "--sampling")) {
            i++;
        } else if (a[0] == '-' && a[1] == '-') {
            /* --streaming, --dump-file ... accepted */
        } else if (npos < 2) {
            pos[npos++] = a;
        }
    }
    if (npos < (start ? 2 : 1)) {
        sink_puts(c->err, "Error: missing PROCESS or FILE\n");
        return 255;
    }
    const struct sim_proc *p = find_process(pos[0]);
    if (!p || !*p->name) {
        sink_printf(c->err, "Exception occurred while executing 'profile':\n"
                    "java.lang.IllegalArgumentException: Unknown process: "
                    "%s\n", pos[0]);
        return 255;
    }
    return start ? profile_start(c, p, pos[1]) : profile_stop(c, p);
}
