/*
 * Builtin commands of the simulated device and their dispatch table.
 * File commands (ls, cat, rm, mkdir, test) are in sim_cmds_fs.c, tail in
 * sim_tail.c, ps in sim_ps.c, atrace in sim_atrace.c (its --stream in
 * sim_stream.c), am in sim_am.c, kill in sim_kill.c.  Output texts follow
 * toybox/mksh on Android 13 where a client might look at them; an
 * unknown command prints "sh: NAME: not found" and exits 127.
 */
#include "sim_cmds.h"
#include "sim_atrace.h"
#include "sim_perfetto.h"
#include "sim_ps.h"

#include <stdlib.h>
#include <string.h>

static int cmd_true(struct sh_cmd *c)
{
    (void)c;
    return 0;
}

static int cmd_false(struct sh_cmd *c)
{
    (void)c;
    return 1;
}

static int cmd_exit(struct sh_cmd *c)
{
    uint64_t n = (uint64_t)c->sh->status;
    if (c->argc > 1 && sim_parse_u64(c->argv[1], &n)) {
        sink_printf(c->err, "sh: exit: %s: bad number\n", c->argv[1]);
        n = 2;
    }
    c->sh->status = (int)(n & 255);
    c->sh->exiting = 1;
    return c->sh->status;
}

/* sleep N[.frac] */
static int cmd_sleep(struct sh_cmd *c)
{
    if (c->argc < 2) {
        sink_puts(c->err, "sleep: Needs 1 argument\n");
        return 1;
    }
    const char *s = c->argv[1];
    uint64_t secs = 0, frac_ns = 0, scale = 100000000u;
    int frac = 0;
    for (; *s; s++) {
        if (*s == '.' && !frac) {
            frac = 1;
        } else if (*s >= '0' && *s <= '9' && (frac || secs < 100000000u)) {
            if (!frac) {
                secs = secs * 10 + (uint64_t)(*s - '0');
            } else {
                frac_ns += (uint64_t)(*s - '0') * scale;
                scale /= 10;
            }
        } else {
            sink_printf(c->err, "sleep: invalid number '%s'\n", c->argv[1]);
            return 1;
        }
    }
    uint64_t ns = secs * 1000000000u + frac_ns;
    if (sim_sleep(ns, sim_shell_cancel_cb, c->sh))
        return 130;
    return 0;
}

static int echo_escapes(struct dynbuf *b, const char *s)
{
    for (; *s; s++) {
        if (*s != '\\' || !s[1]) {
            dynbuf_addc(b, *s);
            continue;
        }
        s++;
        switch (*s) {
        case 'n': dynbuf_addc(b, '\n'); break;
        case 't': dynbuf_addc(b, '\t'); break;
        case 'r': dynbuf_addc(b, '\r'); break;
        case '\\': dynbuf_addc(b, '\\'); break;
        case 'c': return 1;
        case '0': {     /* \0NNN: up to three octal digits */
            unsigned v = 0;
            for (int k = 0; k < 3 && s[1] >= '0' && s[1] <= '7'; k++)
                v = v * 8 + (unsigned)(*++s - '0');
            dynbuf_addc(b, (char)v);
            break;
        }
        default: dynbuf_addc(b, '\\'); dynbuf_addc(b, *s); break;
        }
    }
    return 0;
}

/* echo [-n] [-e] [-E] ARGS...: mksh's builtin, which interprets
 * backslash sequences unless -E (devil relies on "echo \\nDoNe_M$?").
 * One write, so a trace_marker gets one event per echo. */
static int cmd_echo(struct sh_cmd *c)
{
    int i = 1, newline = 1, esc = 1;
    for (; i < c->argc && c->argv[i][0] == '-' && c->argv[i][1]; i++) {
        const char *f = c->argv[i] + 1;
        if (strspn(f, "neE") != strlen(f))
            break;
        for (; *f; f++) {
            if (*f == 'n')
                newline = 0;
            else
                esc = *f == 'e';
        }
    }
    struct dynbuf b;
    dynbuf_init(&b, 1 << 20);
    int stop = 0;
    for (int first = i; i < c->argc && !stop; i++) {
        if (i > first)
            dynbuf_addc(&b, ' ');
        if (esc)
            stop = echo_escapes(&b, c->argv[i]);
        else
            dynbuf_addstr(&b, c->argv[i]);
    }
    if (newline && !stop)
        dynbuf_addc(&b, '\n');
    int rc = sink_write(c->out, b.data, b.len) ? 1 : 0;
    dynbuf_free(&b);
    return rc;
}

static int cmd_id(struct sh_cmd *c)
{
    static const char groups[] =
        "1004(input),1007(log),1011(adb),1015(sdcard_rw),1028(sdcard_r),"
        "1078(ext_data_rw),1079(ext_obb_rw),3001(net_bt_admin),3002(net_bt),"
        "3003(inet),3006(net_bw_stats),3009(readproc),3011(uhid),3012(readtracefs)";
    if (c->argc > 1 && !strcmp(c->argv[1], "-u"))
        return sink_puts(c->out, c->sh->dev->opt.no_root ? "2000\n" : "0\n")
                   ? 1 : 0;
    if (c->sh->dev->opt.no_root)
        return sink_printf(c->out, "uid=2000(shell) gid=2000(shell) "
                           "groups=2000(shell),%s context=u:r:shell:s0\n",
                           groups) ? 1 : 0;
    return sink_printf(c->out, "uid=0(root) gid=0(root) groups=0(root),%s "
                       "context=u:r:su:s0\n", groups) ? 1 : 0;
}

static int cmd_mount(struct sh_cmd *c)
{
    static const char head[] =
        "/dev/block/dm-4 on / type ext4 (ro,seclabel,relatime)\n"
        "tmpfs on /dev type tmpfs (rw,seclabel,nosuid,relatime,mode=755)\n"
        "proc on /proc type proc (rw,relatime,gid=3009,hidepid=invisible)\n"
        "sysfs on /sys type sysfs (rw,seclabel,relatime)\n";
    static const char tracefs[] =
        "tracefs on /sys/kernel/tracing type tracefs "
        "(rw,seclabel,relatime,gid=3012)\n";
    static const char debugfs[] =
        "debugfs on /sys/kernel/debug type debugfs (rw,seclabel,relatime)\n";
    static const char tail[] =
        "/dev/block/dm-40 on /data type f2fs (rw,lazytime,seclabel,nosuid,"
        "nodev,noatime)\n";
    int r = sink_puts(c->out, head);
    r |= sink_puts(c->out, c->sh->dev->opt.debugfs ? debugfs : tracefs);
    r |= sink_puts(c->out, tail);
    return r ? 1 : 0;
}

static int cmd_uname(struct sh_cmd *c)
{
    const char *a = c->argc > 1 ? c->argv[1] : "-s";
    if (!strcmp(a, "-a"))
        return sink_puts(c->out, "Linux localhost 5.10.149-android13-4 #1 "
                         "SMP PREEMPT aarch64 Toybox\n") ? 1 : 0;
    if (!strcmp(a, "-r"))
        return sink_puts(c->out, "5.10.149-android13-4\n") ? 1 : 0;
    if (!strcmp(a, "-m"))
        return sink_puts(c->out, "aarch64\n") ? 1 : 0;
    return sink_puts(c->out, "Linux\n") ? 1 : 0;
}

static int cmd_export(struct sh_cmd *c)
{
    for (int i = 1; i < c->argc; i++) {
        char *eq = strchr(c->argv[i], '=');
        if (!eq)
            continue;
        *eq = '\0';
        sim_shell_setvar(c->sh, c->argv[i], eq + 1);
        *eq = '=';
    }
    return 0;
}

static int cmd_cd(struct sh_cmd *c)
{
    struct sim_stat st;
    const char *dir = c->argc > 1 ? c->argv[1] : "/";
    int e = sim_fs_stat(c->sh->dev->fs, dir, &st);
    if (!e && st.type != SIM_F_DIR)
        e = -20; /* ENOTDIR */
    if (e) {
        sink_printf(c->err, "sh: cd: %s: %s\n", dir, sim_errstr(e));
        return 2;
    }
    return 0;   /* the working directory stays "/" */
}

static int cmd_pidof(struct sh_cmd *c)
{
    int found = 0;
    for (int i = 1; i < c->argc; i++)
        for (size_t j = 0; j < sim_proc_count(); j++) {
            const struct sim_proc *p = sim_proc_at(j);
            const char *slash = strrchr(p->name, '/');
            const char *base = slash ? slash + 1 : p->name;
            if (*p->name && (!strcmp(p->name, c->argv[i]) ||
                             !strcmp(base, c->argv[i])) &&
                !sim_launch_gone(c->sh->dev, p->name)) {
                sink_printf(c->out, "%s%d", found ? " " : "", p->pid);
                found = 1;
            }
        }
    struct sim_device *dev = c->sh->dev;
    for (int i = 1; i < c->argc; i++) {
        pthread_mutex_lock(&dev->lock);
        for (int j = 0; j < SIM_MAX_RUNNING; j++)
            if (dev->running[j].pid && dev->running[j].comm &&
                !strcmp(dev->running[j].comm, c->argv[i])) {
                sink_printf(c->out, "%s%d", found ? " " : "", dev->running[j].pid);
                found = 1;
            }
        pthread_mutex_unlock(&dev->lock);
    }
    if (found)
        sink_puts(c->out, "\n");
    return !found;
}

/* sh -c CMD | sh FILE | sh (script from stdin) */
static int cmd_sh(struct sh_cmd *c)
{
    struct sim_shell sub;
    struct dynbuf script;
    dynbuf_init(&script, 64 * 1024);
    int status;
    if (c->argc > 2 && !strcmp(c->argv[1], "-c")) {
        dynbuf_addstr(&script, c->argv[2]);
    } else if (c->argc > 1) {
        struct sim_reader *r;
        int e = sim_fs_open_read(c->sh->dev->fs, c->argv[1], &r);
        if (e) {
            sink_printf(c->err, "sh: %s: %s\n", c->argv[1], sim_errstr(e));
            return 127;
        }
        char buf[4096];
        long n;
        while ((n = r->read(r, buf, sizeof(buf))) > 0)
            if (dynbuf_add(&script, buf, (size_t)n))
                break;
        r->close(r);
    } else if (c->in) {
        char buf[4096];
        long n;
        while ((n = c->in->read(c->in, buf, sizeof(buf))) > 0)
            if (dynbuf_add(&script, buf, (size_t)n))
                break;
    }
    sim_shell_init(&sub, c->sh->dev, c->sh->stream, c->in);
    sub.depth = c->sh->depth + 1;
    status = script.len ? sim_shell_run(&sub, dynbuf_str(&script), c->out,
                                        c->err)
                        : 0;
    sim_shell_fini(&sub);
    dynbuf_free(&script);
    return status;
}

/* su [UID] [-c CMD | sh -c CMD | CMD ARGS...]: only on rooted builds. */
static int cmd_su(struct sh_cmd *c)
{
    int i = 1;
    if (i < c->argc && (!strcmp(c->argv[i], "0") ||
                        !strcmp(c->argv[i], "root")))
        i++;
    if (i < c->argc && !strcmp(c->argv[i], "-c"))
        i++;
    if (i >= c->argc)
        return 0;
    struct dynbuf cmd;
    dynbuf_init(&cmd, 64 * 1024);
    if (i + 2 < c->argc && !strcmp(c->argv[i], "sh") &&
        !strcmp(c->argv[i + 1], "-c")) {
        dynbuf_addstr(&cmd, c->argv[i + 2]);
    } else {
        for (int j = i; j < c->argc; j++) {
            if (j > i)
                dynbuf_addc(&cmd, ' ');
            dynbuf_addstr(&cmd, c->argv[j]);
        }
    }
    struct sim_shell sub;
    sim_shell_init(&sub, c->sh->dev, c->sh->stream, c->in);
    sub.depth = c->sh->depth + 1;
    int status = sim_shell_run(&sub, dynbuf_str(&cmd), c->out, c->err);
    sim_shell_fini(&sub);
    dynbuf_free(&cmd);
    return status;
}

static int cmd_which(struct sh_cmd *c);

/* exec CMD ARGS: CMD runs as this shell (same pid, $$), and the shell
 * ends with it. */
static int cmd_exec(struct sh_cmd *c)
{
    if (c->argc < 2)
        return 0;
    struct sh_cmd sub = *c;
    sub.argc--;
    sub.argv++;
    c->sh->execing = 1;
    int status = sim_cmd_run(&sub);
    c->sh->execing = 0;
    c->sh->status = status;
    c->sh->exiting = 1;
    return status;
}

static const struct builtin {
    const char *name;
    int (*fn)(struct sh_cmd *c);
    int root_only;
} builtins[] = {
    {"[", sim_cmd_test, 0},
    {"am", sim_cmd_am, 0},
    {"atrace", sim_cmd_atrace, 0},
    {"cat", sim_cmd_cat, 0},
    {"cd", cmd_cd, 0},
    {"cmd", sim_cmd_cmd, 0},
    {"echo", cmd_echo, 0},
    {"exec", cmd_exec, 0},
    {"exit", cmd_exit, 0},
    {"export", cmd_export, 0},
    {"false", cmd_false, 0},
    {"getprop", sim_cmd_getprop, 0},
    {"grep", sim_cmd_grep, 0},
    {"id", cmd_id, 0},
    {"input", sim_cmd_input, 0},
    {"kill", sim_cmd_kill, 0},
    {"logcat", sim_cmd_logcat, 0},
    {"ls", sim_cmd_ls, 0},
    {"mkdir", sim_cmd_mkdir, 0},
    {"mount", cmd_mount, 0},
    {"perfetto", sim_cmd_perfetto, 0},
    {"pidof", cmd_pidof, 0},
    {"pm", sim_cmd_pm, 0},
    {"ps", sim_cmd_ps, 0},
    {"rm", sim_cmd_rm, 0},
    {"setprop", sim_cmd_setprop, 0},
    {"sh", cmd_sh, 0},
    {"sleep", cmd_sleep, 0},
    {"su", cmd_su, 1},
    {"tail", sim_cmd_tail, 0},
    {"test", sim_cmd_test, 0},
    {"true", cmd_true, 0},
    {"uname", cmd_uname, 0},
    {"which", cmd_which, 0},
};

static const struct builtin *find_builtin(struct sim_device *dev,
                                          const char *name)
{
    for (size_t i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++)
        if (!strcmp(builtins[i].name, name)) {
            if (builtins[i].fn == sim_cmd_perfetto && (dev->opt.sdk < 28 || dev->opt.no_perfetto))
                return NULL;    /* no perfetto before Android 9 (or on a build without it) */
            return builtins[i].root_only && dev->opt.no_root ? NULL
                                                             : &builtins[i];
        }
    return NULL;
}

static int cmd_which(struct sh_cmd *c)
{
    int status = 0;
    for (int i = 1; i < c->argc; i++) {
        if (find_builtin(c->sh->dev, c->argv[i]) && c->argv[i][0] != '[')
            sink_printf(c->out, "/system/bin/%s\n", c->argv[i]);
        else
            status = 1;
    }
    return status;
}

int sim_cmd_run(struct sh_cmd *c)
{
    const char *name = c->argv[0];
    const char *slash = strrchr(name, '/');
    if (slash) {
        struct sim_stat st;
        if (sim_fs_stat(c->sh->dev->fs, name, &st)) {
            sink_printf(c->err, "sh: %s: not found\n", name);
            return 127;
        }
        name = slash + 1;
        const struct builtin *b = find_builtin(c->sh->dev, name);
        if (!b || st.type != SIM_F_REG) {
            sink_printf(c->err, "sh: %s: can't execute: Permission denied\n",
                        c->argv[0]);
            return 126;
        }
        return b->fn(c);
    }
    const struct builtin *b = find_builtin(c->sh->dev, name);
    if (!b) {
        sink_printf(c->err, "sh: %s: not found\n", name);
        return 127;
    }
    return b->fn(c);
}
