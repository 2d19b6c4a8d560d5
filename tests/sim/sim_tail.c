/*
 * `tail` on the simulated device, as toybox's:
 *
 *   tail [-f] [-c [+]N] [-n [+]N] [FILE]
 *
 * -c N / -n N: the last N bytes / lines (default -n 10); -c +N / -n +N:
 * from byte / line N on (1-based).  No FILE, or "-": stdin (never
 * followed).  One FILE only (toybox takes several, with headers).
 *
 * -f: past the end the file is polled every 20 ms and what it gains is
 * written as it appears, binary-exact and sent at once: how a host reads
 * a trace perfetto is still writing (`tail -c +1 -f`).  It never ends by
 * itself: `kill PID` (it is in `pidof tail`), the host closing the stream
 * (adbd hangs up on it; noticed while idle too, so no tail is left
 * polling) or the simulator stopping ends it.  Files of
 * /data/misc/perfetto-traces are refused as `cat` refuses them.
 * --no-tail-follow: a tail that knows no -f (Unknown option), exit 1.
 * --tail-noise err|out: tail -f first warns that it polls (as GNU tail
 * does without inotify), on stderr or on stdout; without shell protocol
 * v2 stderr reaches the host mixed into the file's bytes.
 */
#include "sim_cmds.h"
#include "sim_perfetto.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK (64 * 1024)
#define POLL_NS 20000000u
#define KEEP_MAX (256u << 20)       /* the most "the last N" may hold */
#define TRIM_AT (1u << 20)
#define SIGPIPE_STATUS (128 + 13)

struct tail {
    struct sh_cmd *c;
    int follow, bytes, from_start;  /* -f; -c (else -n); +N */
    uint64_t n;
    uint64_t skip;                  /* +N: bytes or lines still to skip */
    int pid;                        /* while following */
    char *buf;
};

/* what: "Unknown option" or "Missing argument to" */
static int usage_error(struct sh_cmd *c, const char *what, char opt)
{
    sink_printf(c->err, "tail: %s %s%c%s (see \"tail --help\")\n", what,
                *what == 'U' ? "'" : "-", opt, *what == 'U' ? "'" : "");
    return -1;
}

/* "[+|-]N" */
static int count_arg(struct tail *t, char opt, const char *v)
{
    if (!v)
        return usage_error(t->c, "Missing argument to", opt);
    t->bytes = opt == 'c';
    t->from_start = *v == '+';
    if ((*v == '+' || *v == '-') ? sim_parse_u64(v + 1, &t->n) : sim_parse_u64(v, &t->n)) {
        sink_printf(t->c->err, "tail: -%c: bad number '%s'\n", opt, v);
        return -1;
    }
    return 0;
}

/* The index of the first operand, or -1 with the message printed. */
static int options(struct tail *t)
{
    struct sh_cmd *c = t->c;
    int i = 1;
    t->n = 10;
    for (; i < c->argc; i++) {
        const char *a = c->argv[i];
        if (!strcmp(a, "--"))
            return i + 1;
        if (a[0] != '-' || !a[1])
            break;
        for (const char *f = a + 1; *f; f++) {
            if (*f == 'f' && !c->sh->dev->opt.no_tail_follow) {
                t->follow = 1;
                continue;
            }
            if (*f != 'c' && *f != 'n')
                return usage_error(c, "Unknown option", *f);
            const char *v = f[1] ? f + 1 : i + 1 < c->argc ? c->argv[++i] : NULL;
            if (count_arg(t, *f, v))
                return -1;
            break;
        }
    }
    t->skip = t->from_start && t->n ? t->n - 1 : 0;
    return i;
}

static int put(struct tail *t, const char *p, size_t n)
{
    return sink_write(t->c->out, p, n) || sim_shell_cancelled(t->c->sh) ? -1 : 0;
}

/* Copy what r holds now, past the +N skip; -1 when the reader went away. */
static int copy_on(struct tail *t, struct sim_reader *r)
{
    long k;
    while ((k = r->read(r, t->buf, CHUNK)) > 0) {
        size_t at = 0, len = (size_t)k;
        while (t->skip && at < len) {
            if (t->bytes) {
                size_t m = t->skip < len - at ? (size_t)t->skip : len - at;
                at += m;
                t->skip -= m;
            } else {
                const char *nl = memchr(t->buf + at, '\n', len - at);
                at = nl ? (size_t)(nl - t->buf) + 1 : len;
                t->skip -= nl ? 1 : 0;
            }
        }
        if (at < len && put(t, t->buf + at, len - at))
            return -1;
    }
    return 0;
}

/* Where the last n bytes or lines of p start (a last line may lack its
 * newline). */
static size_t last_start(const struct tail *t, const char *p, size_t len)
{
    if (t->bytes)
        return len > t->n ? len - (size_t)t->n : 0;
    if (!t->n)
        return len;
    size_t i = len && p[len - 1] == '\n' ? len - 1 : len;
    uint64_t seen = 0;
    for (; i > 0; i--)
        if (p[i - 1] == '\n' && ++seen == t->n)
            break;
    return i;
}

/* The last N: everything is read, only as much as that needs is kept. */
static int copy_last(struct tail *t, struct sim_reader *r)
{
    struct dynbuf keep;
    dynbuf_init(&keep, KEEP_MAX);
    long k;
    int rc = 0;
    while (!rc && (k = r->read(r, t->buf, CHUNK)) > 0) {
        if (dynbuf_add(&keep, t->buf, (size_t)k) != ST_OK) {
            sink_puts(t->c->err, "tail: Out of memory\n");
            rc = 1;
        } else if (keep.len > TRIM_AT) {
            dynbuf_consume(&keep, last_start(t, keep.data, keep.len));
        }
    }
    size_t at = rc ? 0 : last_start(t, dynbuf_str(&keep), keep.len);
    if (!rc && put(t, dynbuf_str(&keep) + at, keep.len - at))
        rc = -1;
    dynbuf_free(&keep);
    return rc;
}

static int stop_asked(void *arg)
{
    struct tail *t = arg;
    return sim_run_signal(t->c->sh->dev, t->pid) || sim_shell_cancelled(t->c->sh);
}

/* -f: poll for more until told to stop; the status tail dies with. */
static int follow(struct tail *t, struct sim_reader *r)
{
    struct sim_device *dev = t->c->sh->dev;
    for (;;) {
        if (copy_on(t, r) || sink_flush(t->c->out))
            return SIGPIPE_STATUS;
        if (sim_sleep(POLL_NS, stop_asked, t)) {
            int sig = sim_run_signal(dev, t->pid);
            return 128 + (sig ? sig : sim_stopping ? SIGTERM : SIGHUP);
        }
    }
}

struct stdin_reader {
    struct sim_reader r;
    struct sim_stdin *in;
};

static long stdin_read(struct sim_reader *r, void *p, size_t n)
{
    struct sim_stdin *in = ((struct stdin_reader *)r)->in;
    return in ? in->read(in, p, n) : 0;
}

static int open_source(struct tail *t, const char *path, struct sim_reader **r)
{
    struct sim_device *dev = t->c->sh->dev;
    int e = sim_pf_read_refused(dev, path, 0);
    if (!e)
        e = sim_fs_open_read(dev->fs, path, r);
    if (e)
        sink_printf(t->c->err, "tail: %s: %s\n", path, sim_errstr(e));
    return e;
}

static int run(struct tail *t, struct sim_reader *r)
{
    struct sim_device *dev = t->c->sh->dev;
    if (t->follow) {
        t->pid = t->c->sh->execing ? t->c->sh->pid : sim_alloc_pid(dev);
        if (sim_run_start(dev, t->pid)) {
            sink_puts(t->c->err, "tail: fork: Resource temporarily unavailable\n");
            return 1;
        }
        sim_run_set_comm(dev, t->pid, "tail");
    }
    int noise = t->follow ? dev->opt.tail_noise : 0;
    if (noise)
        sink_puts(noise == 2 ? t->c->out : t->c->err,
                  "tail: inotify cannot be used, reverting to polling\n");
    int rc = t->from_start ? copy_on(t, r) : copy_last(t, r);
    if (rc < 0)
        rc = SIGPIPE_STATUS;
    else if (!rc && t->follow)
        rc = follow(t, r);
    if (t->follow)
        sim_run_end(dev, t->pid);
    return rc;
}

int sim_cmd_tail(struct sh_cmd *c)
{
    struct tail t = {.c = c};
    int i = options(&t);
    if (i < 0)
        return 1;
    if (c->argc - i > 1) {
        sink_puts(c->err, "tail: one FILE only\n");
        return 1;
    }
    const char *path = i < c->argc && strcmp(c->argv[i], "-") ? c->argv[i] : NULL;
    struct stdin_reader in = {{stdin_read, NULL}, c->in};
    struct sim_reader *r = &in.r;
    if (path && open_source(&t, path, &r))
        return 1;
    t.follow = t.follow && path;
    int rc = 1;
    if ((t.buf = malloc(CHUNK)))
        rc = run(&t, r);
    free(t.buf);
    if (path)
        r->close(r);
    return rc;
}
