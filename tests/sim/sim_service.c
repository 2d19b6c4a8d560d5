/*
 * Services a host can open on the simulated device:
 *   shell:CMD            merged stdout+stderr, no exit status
 *   shell:               interactive shell (prompt, PTY echo, \r\n)
 *   shell,ARGS:CMD       ARGS a comma list: v2 (shell protocol framing:
 *                        [id u8][len u32 LE][data], ids 0 stdin, 1 stdout,
 *                        2 stderr, 3 exit, 4 close-stdin, 5 window size),
 *                        raw/pty, TERM=...; refused with --no-shell-v2
 *   exec:CMD             raw, binary-safe, no exit status
 *   sync:                file transfer (sim_sync.c)
 * Every command string is logged ("sh CMD"); with --hang-on TEXT a
 * command containing TEXT never answers until the host gives up.
 * Frames and WRTE packets are independent: frames go into the stream's
 * byte buffer and are split into WRTEs of maxdata bytes.
 */
#include "sim_shell.h"
#include "sim_sync.h"
#include "sim_wire.h"

#include <stdlib.h>
#include <string.h>

#define V2_STDIN 0
#define V2_STDOUT 1
#define V2_STDERR 2
#define V2_EXIT 3
#define V2_CLOSE_STDIN 4
#define V2_WINDOW 5
#define V2_CHUNK (64 * 1024)
#define LINE_MAX_LEN (64 * 1024)

int sim_service_known(struct sim_device *dev, const char *name)
{
    if (!strncmp(name, "shell:", 6) || !strncmp(name, "exec:", 5) ||
        !strcmp(name, "sync:"))
        return 1;
    if (!strncmp(name, "shell,", 6))
        return !dev->opt.no_shell_v2 && strchr(name, ':') != NULL;
    return 0;
}

/* Sinks onto the stream. */

struct stream_sink {
    struct sim_sink base;
    struct sim_stream *s;
    int id;         /* v2 frame id, or -1 for raw bytes */
    int crlf;       /* PTY: \n becomes \r\n */
};

static int put_frame(struct sim_stream *s, int id, const void *p, size_t n)
{
    unsigned char h[5] = {(unsigned char)id, (unsigned char)n,
                          (unsigned char)(n >> 8), (unsigned char)(n >> 16),
                          (unsigned char)(n >> 24)};
    return sim_stream_write(s, h, 5) || sim_stream_write(s, p, n) ? -1 : 0;
}

static int put_bytes(struct stream_sink *k, const char *p, size_t n)
{
    while (n) {
        size_t len = n > V2_CHUNK ? V2_CHUNK : n;
        int r = k->id >= 0 ? put_frame(k->s, k->id, p, len)
                           : sim_stream_write(k->s, p, len);
        if (r)
            return -1;
        p += len;
        n -= len;
    }
    return 0;
}

static int stream_sink_flush(struct sim_sink *sk)
{
    return sim_stream_flush(((struct stream_sink *)sk)->s);
}

static int stream_sink_write(struct sim_sink *sk, const void *p, size_t n)
{
    struct stream_sink *k = (struct stream_sink *)sk;
    if (!k->crlf)
        return put_bytes(k, p, n);
    const char *b = p, *end = b + n;
    while (b < end) {
        const char *nl = memchr(b, '\n', (size_t)(end - b));
        size_t len = nl ? (size_t)(nl - b) : (size_t)(end - b);
        if (put_bytes(k, b, len) || (nl && put_bytes(k, "\r\n", 2)))
            return -1;
        b += len + (nl ? 1 : 0);
    }
    return 0;
}

/* Stdin readers. */

struct raw_stdin {
    struct sim_stdin base;
    struct sim_stream *s;
};

static long raw_stdin_read(struct sim_stdin *in, void *p, size_t n)
{
    return sim_stream_read(((struct raw_stdin *)in)->s, p, n);
}

struct v2_stdin {
    struct sim_stdin base;
    struct sim_stream *s;
    uint32_t left;      /* bytes left in the current stdin frame */
    int eof;
};

static long v2_stdin_read(struct sim_stdin *in, void *p, size_t n)
{
    struct v2_stdin *v = (struct v2_stdin *)in;
    while (!v->eof && !v->left) {
        unsigned char h[5];
        if (sim_stream_read_full(v->s, h, 5)) {
            v->eof = 1;
            break;
        }
        uint32_t len = (uint32_t)h[1] | (uint32_t)h[2] << 8 |
                       (uint32_t)h[3] << 16 | (uint32_t)h[4] << 24;
        if (h[0] == V2_STDIN) {
            v->left = len;
            continue;
        }
        if (h[0] == V2_CLOSE_STDIN)
            v->eof = 1;
        /* window size and unknown ids: skip the payload */
        char skip[256];
        while (len) {
            size_t k = len > sizeof(skip) ? sizeof(skip) : len;
            if (sim_stream_read_full(v->s, skip, k)) {
                v->eof = 1;
                break;
            }
            len -= (uint32_t)k;
        }
    }
    if (v->eof && !v->left)
        return 0;
    size_t k = n > v->left ? v->left : n;
    long r = sim_stream_read(v->s, p, k);
    if (r <= 0) {
        v->eof = 1;
        return 0;
    }
    v->left -= (uint32_t)r;
    return r;
}

struct session {
    struct sim_stream *s;
    struct sim_device *dev;
    int v2, pty;
    struct stream_sink out, err;
    struct raw_stdin raw_in;
    struct v2_stdin v2_in;
    struct sim_stdin *in;
};

static void session_init(struct session *ss, struct sim_stream *s, int v2,
                         int pty)
{
    memset(ss, 0, sizeof(*ss));
    ss->s = s;
    ss->dev = sim_stream_device(s);
    ss->v2 = v2;
    ss->pty = pty;
    ss->out = (struct stream_sink){{stream_sink_write, NULL, stream_sink_flush}, s,
                                   v2 ? V2_STDOUT : -1, pty};
    ss->err = (struct stream_sink){{stream_sink_write, NULL, stream_sink_flush}, s,
                                   v2 ? V2_STDERR : -1, pty};
    ss->raw_in = (struct raw_stdin){{raw_stdin_read}, s};
    ss->v2_in = (struct v2_stdin){{v2_stdin_read}, s, 0, 0};
    ss->in = v2 ? &ss->v2_in.base : &ss->raw_in.base;
}

static void hang(struct sim_stream *s)
{
    sim_stream_flush(s);
    while (!sim_sleep(1000000000u, sim_stream_cancelled, s))
        ;
}

static int run_string(struct session *ss, struct sim_shell *sh,
                      const char *cmd)
{
    sim_log(ss->dev, "sh", cmd);
    if (ss->dev->opt.hang_on && strstr(cmd, ss->dev->opt.hang_on)) {
        hang(ss->s);
        return -1;
    }
    return sim_shell_run(sh, cmd, &ss->out.base, &ss->err.base);
}

static void send_exit(struct session *ss, int status)
{
    unsigned char code = (unsigned char)status;
    if (ss->v2)
        put_frame(ss->s, V2_EXIT, &code, 1);
}

static long read_line(struct session *ss, struct dynbuf *line)
{
    dynbuf_reset(line);
    for (;;) {
        char c;
        long r = ss->in->read(ss->in, &c, 1);
        if (r <= 0)
            return line->len ? (long)line->len : -1;
        if (ss->pty)
            sink_write(&ss->out.base, c == '\r' ? "\n" : &c, 1);
        if (c == '\n' || c == '\r')
            return (long)line->len;
        if (dynbuf_addc(line, c))
            return -1;
    }
}

static void interactive(struct session *ss)
{
    struct sim_shell sh;
    struct dynbuf line;
    const char *prompt = ss->dev->opt.no_root ? "sim:/ $ " : "sim:/ # ";
    dynbuf_init(&line, LINE_MAX_LEN);
    sim_shell_init(&sh, ss->dev, ss->s, ss->in);
    int status = 0;
    for (;;) {
        /* sh prompts only on a terminal */
        if ((ss->pty && sink_puts(&ss->out.base, prompt)) ||
            sim_stream_flush(ss->s))
            break;
        if (read_line(ss, &line) < 0)
            break;
        if (!line.len)
            continue;
        status = run_string(ss, &sh, dynbuf_str(&line));
        if (status < 0 || sh.exiting)
            break;
    }
    if (status >= 0)
        send_exit(ss, sh.status);
    sim_shell_fini(&sh);
    dynbuf_free(&line);
}

static void run_command(struct sim_stream *s, const char *cmd, int v2,
                        int pty)
{
    struct session ss;
    session_init(&ss, s, v2, pty);
    if (!*cmd) {
        interactive(&ss);
        return;
    }
    struct sim_shell sh;
    sim_shell_init(&sh, ss.dev, s, ss.in);
    int status = run_string(&ss, &sh, cmd);
    if (status >= 0)
        send_exit(&ss, status);
    sim_shell_fini(&sh);
}

/* shell,ARGS:CMD */
static void shell_args(struct sim_stream *s, const char *spec)
{
    const char *colon = strchr(spec, ':');
    int v2 = 0, pty = -1;
    for (const char *a = spec; a < colon;) {
        size_t len = strcspn(a, ",:");
        if (len == 2 && !strncmp(a, "v2", 2))
            v2 = 1;
        else if (len == 3 && !strncmp(a, "raw", 3))
            pty = 0;
        else if (len == 3 && !strncmp(a, "pty", 3))
            pty = 1;
        a += len;
        if (*a == ',')
            a++;
    }
    if (pty < 0)
        pty = colon[1] == '\0';
    run_command(s, colon + 1, v2, pty);
}

void sim_service_run(struct sim_stream *s)
{
    const char *name = sim_stream_service(s);
    struct sim_device *dev = sim_stream_device(s);
    if (!strcmp(name, "sync:"))
        sim_sync_serve(s);
    else if (!strncmp(name, "exec:", 5))
        run_command(s, name + 5, 0, 0);
    else if (!strncmp(name, "shell:", 6))
        run_command(s, name + 6, 0, !name[6] || dev->opt.crlf);
    else if (!strncmp(name, "shell,", 6))
        shell_args(s, name + 6);
}
