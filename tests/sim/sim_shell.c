/*
 * The simulator's shell: a bounded subset of POSIX sh, enough for the
 * commands systrace and catapult send.
 *
 *   list      := and_or ((';' | '&' | newline) and_or)*
 *   and_or    := pipeline (('&&' | '||') pipeline)*
 *   pipeline  := ['!'] command ('|' command)*
 *   command   := '(' list ')' redir* | while list do list done
 *              | (assignment | word | redir)+
 *   redir     := [fd] ('>' | '>>' | '<' | '>&' | '<&') word
 *
 * Words: single and double quotes, backslash, $? $$ $NAME ${NAME}; globs
 * (* ? [..]) are expanded against the device file system (sim_fs_glob).
 * Deviations: no field splitting of variables, no $(...) or backticks,
 * no if/for/case (`while` only: the device-side wait loop of --perfetto),
 * '&' runs in the foreground, a pipe buffers its left side (64 MiB max).
 * Limits: 64 KiB of input, 4096 words, nesting depth 32; beyond that the
 * command fails with a syntax error instead of consuming memory.
 */
#include "sim_shell_ast.h"
#include "sim_wire.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Execution. */

struct io {
    struct sim_sink *fd[10];
    struct sim_stdin *in;
};

struct opened {
    struct sim_sink *sinks[10];
    size_t n;
};

static void close_opened(struct opened *o)
{
    for (size_t i = 0; i < o->n; i++)
        if (o->sinks[i]->close)
            o->sinks[i]->close(o->sinks[i]);
    o->n = 0;
}

static struct sim_sink *io_err(struct io *io)
{
    return io->fd[2] ? io->fd[2] : &sim_null_sink;
}

static int apply_redirs(struct sim_shell *sh, struct sh_redir *r, struct io *io,
                        struct opened *o)
{
    for (; r; r = r->next) {
        char *target = sh_expand_single(sh, r->target);
        if (!target)
            return -1;
        int rc = 0;
        if (r->op == R_DUP_OUT || r->op == R_DUP_IN) {
            if (!strcmp(target, "-")) {
                io->fd[r->fd] = &sim_null_sink;
            } else if (target[0] >= '0' && target[0] <= '9' && !target[1]) {
                if (r->op == R_DUP_OUT)
                    io->fd[r->fd] = io->fd[target[0] - '0'];
            } else {
                sink_printf(io_err(io), "sh: %s: bad file descriptor\n",
                            target);
                rc = -1;
            }
        } else if (r->op == R_IN) {
            struct sim_stat st;
            int e = sim_fs_stat(sh->dev->fs, target, &st);
            if (e) {
                sink_printf(io_err(io), "sh: can't open %s: %s\n", target,
                            sim_errstr(e));
                rc = -1;
            }
            /* stdin redirection from files is accepted but not read */
        } else {
            struct sim_sink *k;
            int e = sim_fs_open_write(sh->dev->fs, target,
                                      r->op == R_APPEND, sh->pid, &k);
            if (e) {
                sink_printf(io_err(io), "sh: can't create %s: %s\n", target,
                            sim_errstr(e));
                rc = -1;
            } else {
                if (o->n < sizeof(o->sinks) / sizeof(o->sinks[0]))
                    o->sinks[o->n++] = k;
                io->fd[r->fd] = k;
            }
        }
        free(target);
        if (rc)
            return rc;
    }
    return 0;
}

static int exec_node(struct sim_shell *sh, struct sh_node *n, struct io *io);

static int is_assignment(const char *w)
{
    if (!sh_is_name_char(w[0], 1))
        return 0;
    size_t i = 1;
    while (sh_is_name_char(w[i], 0))
        i++;
    return w[i] == '=';
}

/* --stall-on: the first command containing its text waits before it runs
 * (another host's command goes first: a race made to happen). */
static void stall(struct sim_shell *sh, const char *cmd)
{
    struct sim_device *dev = sh->dev;
    if (!dev->opt.stall_on || !memmem(cmd, strlen(cmd), dev->opt.stall_on, dev->opt.stall_len))
        return;
    pthread_mutex_lock(&dev->lock);
    int first = !dev->stalled;
    dev->stalled = 1;
    pthread_mutex_unlock(&dev->lock);
    if (!first)
        return;
    sim_log(dev, "stall", cmd);
    sim_sleep((uint64_t)dev->opt.stall_ms * 1000000u, sim_shell_cancel_cb, sh);
}

/* Each command as it runs: logged, and held back if --stall-on says so. */
static void log_argv(struct sim_shell *sh, char **argv, size_t n)
{
    struct dynbuf b;
    dynbuf_init(&b, 1 << 20);
    for (size_t i = 0; i < n; i++) {
        if (i)
            dynbuf_addc(&b, ' ');
        dynbuf_addstr(&b, argv[i]);
    }
    sim_log(sh->dev, "run", dynbuf_str(&b));
    stall(sh, dynbuf_str(&b));
    dynbuf_free(&b);
}

static int exec_simple(struct sim_shell *sh, struct sh_node *n, struct io *io)
{
    size_t first = 0;
    while (first < n->nwords && is_assignment(n->words[first]))
        first++;
    struct sh_argv args;
    memset(&args, 0, sizeof(args));
    for (size_t i = first; i < n->nwords; i++)
        if (sh_expand_fields(sh, n->words[i], &args)) {
            sink_puts(io_err(io), "sh: argument list too long\n");
            sh_argv_free(&args);
            return 1;
        }
    if (!args.n)
        for (size_t i = 0; i < first; i++) {
            char *eq = strchr(n->words[i], '=');
            char *v = sh_expand_single(sh, eq + 1);
            *eq = '\0';
            sim_shell_setvar(sh, n->words[i], v ? v : "");
            *eq = '=';
            free(v);
        }
    struct io cio = *io;
    struct opened o = {{0}, 0};
    int status;
    if (apply_redirs(sh, n->redirs, &cio, &o)) {
        status = 1;
    } else if (!args.n) {
        status = 0;
    } else {
        log_argv(sh, args.v, args.n);
        struct sh_cmd c = {sh, (int)args.n, args.v,
                           cio.fd[1] ? cio.fd[1] : &sim_null_sink,
                           cio.fd[2] ? cio.fd[2] : &sim_null_sink, cio.in};
        status = sim_cmd_run(&c);
    }
    close_opened(&o);
    sh_argv_free(&args);
    return status;
}

static int exec_subshell(struct sim_shell *sh, struct sh_node *n, struct io *io)
{
    struct sim_shell sub;
    sim_shell_init(&sub, sh->dev, sh->stream, sh->in);
    sub.pid = sh->pid;
    sub.status = sh->status;
    sub.depth = sh->depth + 1;
    for (size_t i = 0; i < sh->nvars; i++)
        sim_shell_setvar(&sub, sh->vars[i].name, sh->vars[i].value);
    struct io cio = *io;
    struct opened o = {{0}, 0};
    int status = 1;
    if (!apply_redirs(sh, n->redirs, &cio, &o))
        status = exec_node(&sub, n->l, &cio);
    close_opened(&o);
    sim_shell_fini(&sub);
    return status;
}

struct mem_stdin {
    struct sim_stdin base;
    const char *p;
    size_t len, off;
};

static long mem_stdin_read(struct sim_stdin *in, void *p, size_t n)
{
    struct mem_stdin *m = (struct mem_stdin *)in;
    size_t k = m->len - m->off;
    if (k > n)
        k = n;
    memcpy(p, m->p + m->off, k);
    m->off += k;
    return (long)k;
}

struct buf_sink {
    struct sim_sink base;
    struct dynbuf b;
};

static int buf_sink_write(struct sim_sink *k, const void *p, size_t n)
{
    return dynbuf_add(&((struct buf_sink *)k)->b, p, n) ? -1 : 0;
}

static int exec_pipe(struct sim_shell *sh, struct sh_node *n, struct io *io)
{
    struct buf_sink bs = {{buf_sink_write, NULL, NULL}, {0}};
    dynbuf_init(&bs.b, SH_PIPE_MAX);
    struct io left = *io;
    left.fd[1] = &bs.base;
    exec_node(sh, n->l, &left);
    struct mem_stdin ms = {{mem_stdin_read}, dynbuf_str(&bs.b), bs.b.len, 0};
    struct io right = *io;
    right.in = &ms.base;
    int status = exec_node(sh, n->r, &right);
    dynbuf_free(&bs.b);
    return status;
}

/* Until the condition fails, the shell exits or is hung up on (a loop
 * with no sleep in it spins, as on a phone). */
static int exec_while(struct sim_shell *sh, struct sh_node *n, struct io *io)
{
    int status = 0;
    while (!sh->exiting && !sim_shell_cancelled(sh) && !exec_node(sh, n->l, io) &&
           !sh->exiting)
        status = exec_node(sh, n->r, io);
    return sh->exiting ? sh->status : status;
}

static int exec_node(struct sim_shell *sh, struct sh_node *n, struct io *io)
{
    int status = 0;
    if (sh->exiting)
        return sh->status;
    if (sim_shell_cancelled(sh))
        return sh->status = 130;
    switch (n->type) {
    case N_CMD:
        status = exec_simple(sh, n, io);
        break;
    case N_SUB:
        status = exec_subshell(sh, n, io);
        break;
    case N_SEQ:
        exec_node(sh, n->l, io);
        status = sh->exiting ? sh->status : exec_node(sh, n->r, io);
        break;
    case N_AND:
        status = exec_node(sh, n->l, io);
        if (!status && !sh->exiting)
            status = exec_node(sh, n->r, io);
        break;
    case N_OR:
        status = exec_node(sh, n->l, io);
        if (status && !sh->exiting)
            status = exec_node(sh, n->r, io);
        break;
    case N_NOT:
        status = !exec_node(sh, n->l, io);
        break;
    case N_PIPE:
        status = exec_pipe(sh, n, io);
        break;
    case N_WHILE:
        status = exec_while(sh, n, io);
        break;
    }
    if (!sh->exiting)
        sh->status = status;
    return sh->status;
}

void sim_shell_init(struct sim_shell *sh, struct sim_device *dev,
                    struct sim_stream *stream, struct sim_stdin *in)
{
    memset(sh, 0, sizeof(*sh));
    sh->dev = dev;
    sh->stream = stream;
    sh->in = in;
    sh->pid = sim_alloc_pid(dev);
}

void sim_shell_fini(struct sim_shell *sh)
{
    for (size_t i = 0; i < sh->nvars; i++) {
        free(sh->vars[i].name);
        free(sh->vars[i].value);
    }
    sh->nvars = 0;
}

int sim_shell_run(struct sim_shell *sh, const char *cmd,
                  struct sim_sink *out, struct sim_sink *err)
{
    if (strlen(cmd) > SH_MAX_INPUT) {
        sink_puts(err, "sh: command too long\n");
        return sh->status = 2;
    }
    if (sh->depth > 8) {
        sink_puts(err, "sh: nested too deep\n");
        return sh->status = 2;
    }
    char msg[160];
    struct sh_node *n = sh_parse(cmd, msg, sizeof(msg));
    if (!n) {
        sink_printf(err, "sh: %s\n", msg);
        return sh->status = 2;
    }
    struct io io;
    memset(&io, 0, sizeof(io));
    io.fd[1] = out;
    io.fd[2] = err;
    io.in = sh->in;
    int status = exec_node(sh, n, &io);
    sh_node_free(n);
    return status;
}

int sim_shell_cancelled(struct sim_shell *sh)
{
    return sim_stopping || (sh->stream && sim_stream_closed(sh->stream));
}

int sim_shell_cancel_cb(void *sh)
{
    return sim_shell_cancelled(sh);
}

const char *sim_errstr(int neg_errno)
{
    switch (-neg_errno) {
    case ENOENT: return "No such file or directory";
    case EACCES: return "Permission denied";
    case EISDIR: return "Is a directory";
    case ENOTDIR: return "Not a directory";
    case EEXIST: return "File exists";
    case ENOTEMPTY: return "Directory not empty";
    case ENAMETOOLONG: return "File name too long";
    case EINVAL: return "Invalid argument";
    case ENOMEM: return "Out of memory";
    default: return "I/O error";
    }
}
