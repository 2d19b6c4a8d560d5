/*
 * The simulator's shell: a bounded subset of POSIX sh, enough for the
 * commands systrace and catapult send.
 *
 *   list      := and_or ((';' | '&' | newline) and_or)*
 *   and_or    := pipeline (('&&' | '||') pipeline)*
 *   pipeline  := ['!'] command ('|' command)*
 *   command   := '(' list ')' redir* | (assignment | word | redir)+
 *   redir     := [fd] ('>' | '>>' | '<' | '>&' | '<&') word
 *
 * Words: single and double quotes, backslash, $? $$ $NAME ${NAME}; globs
 * (* ? [..]) are expanded against the device file system (sim_fs_glob).
 * Deviations: no field splitting of variables, no $(...) or backticks,
 * '&' runs in the foreground, a pipe buffers its left side (64 MiB max).
 * Limits: 64 KiB of input, 4096 words, nesting depth 32; beyond that the
 * command fails with a syntax error instead of consuming memory.
 */
#include "sim_shell.h"
#include "sim_wire.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define SH_MAX_INPUT (64 * 1024)
#define SH_MAX_WORDS 4096
#define SH_MAX_DEPTH 32
#define SH_MAX_ARGS 8192
#define SH_PIPE_MAX (64u << 20)

enum tok_type {
    T_EOF, T_WORD, T_SEMI, T_NL, T_AMP, T_AND, T_OR, T_PIPE, T_LPAREN,
    T_RPAREN, T_REDIR,
};

enum redir_op { R_OUT, R_APPEND, R_IN, R_DUP_OUT, R_DUP_IN };

struct token {
    enum tok_type type;
    char *text;         /* T_WORD: raw text; T_REDIR: target (raw) */
    int fd;             /* T_REDIR */
    enum redir_op op;
};

struct redir {
    struct redir *next;
    int fd;
    enum redir_op op;
    char *target;
};

enum node_type { N_CMD, N_SUB, N_AND, N_OR, N_SEQ, N_NOT, N_PIPE };

struct node {
    enum node_type type;
    struct node *l, *r;
    char **words;
    size_t nwords;
    struct redir *redirs;
};

struct parser {
    const char *src;
    size_t pos;
    struct token tok;   /* current lookahead */
    int have_tok;
    int depth;
    size_t words;
    char err[128];
};

/* Lexer. */

static int is_meta(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '&' ||
           c == '|' || c == '(' || c == ')' || c == '<' || c == '>' ||
           c == '\0';
}

static int set_err(struct parser *p, const char *msg, const char *what)
{
    if (!p->err[0])
        snprintf(p->err, sizeof(p->err), "%s%s", msg, what ? what : "");
    return -1;
}

/* Scan a raw word at p->pos; returns its length or -1 (unclosed quote). */
static long scan_word(struct parser *p)
{
    const char *s = p->src + p->pos;
    size_t i = 0;
    while (!is_meta(s[i])) {
        if (s[i] == '\\') {
            i += s[i + 1] ? 2 : 1;
        } else if (s[i] == '\'') {
            const char *q = strchr(s + i + 1, '\'');
            if (!q)
                return set_err(p, "unterminated quoted string", NULL);
            i = (size_t)(q - s) + 1;
        } else if (s[i] == '"') {
            i++;
            while (s[i] && s[i] != '"')
                i += s[i] == '\\' && s[i + 1] ? 2 : 1;
            if (!s[i])
                return set_err(p, "unterminated quoted string", NULL);
            i++;
        } else {
            i++;
        }
    }
    return (long)i;
}

static char *dup_n(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

static int lex_redir(struct parser *p, int fd, struct token *t)
{
    const char *s = p->src + p->pos;
    size_t n = 1;
    if (s[0] == '>') {
        t->op = R_OUT;
        if (s[1] == '>') {
            t->op = R_APPEND;
            n = 2;
        } else if (s[1] == '&') {
            t->op = R_DUP_OUT;
            n = 2;
        } else if (s[1] == '|') {
            n = 2;
        }
        t->fd = fd < 0 ? 1 : fd;
    } else {
        t->op = R_IN;
        if (s[1] == '&') {
            t->op = R_DUP_IN;
            n = 2;
        }
        t->fd = fd < 0 ? 0 : fd;
    }
    p->pos += n;
    while (p->src[p->pos] == ' ' || p->src[p->pos] == '\t')
        p->pos++;
    long len = scan_word(p);
    if (len <= 0)
        return set_err(p, "syntax error: redirection without target", NULL);
    t->type = T_REDIR;
    t->text = dup_n(p->src + p->pos, (size_t)len);
    p->pos += (size_t)len;
    return t->text ? 0 : -1;
}

static int lex(struct parser *p, struct token *t)
{
    memset(t, 0, sizeof(*t));
    for (;;) {
        char c = p->src[p->pos];
        if (c == ' ' || c == '\t' || c == '\r') {
            p->pos++;
        } else if (c == '#') {
            while (p->src[p->pos] && p->src[p->pos] != '\n')
                p->pos++;
        } else {
            break;
        }
    }
    const char *s = p->src + p->pos;
    switch (s[0]) {
    case '\0': t->type = T_EOF; return 0;
    case '\n': t->type = T_NL; p->pos++; return 0;
    case ';': t->type = T_SEMI; p->pos++; return 0;
    case '(': t->type = T_LPAREN; p->pos++; return 0;
    case ')': t->type = T_RPAREN; p->pos++; return 0;
    case '&':
        t->type = s[1] == '&' ? T_AND : T_AMP;
        p->pos += s[1] == '&' ? 2 : 1;
        return 0;
    case '|':
        t->type = s[1] == '|' ? T_OR : T_PIPE;
        p->pos += s[1] == '|' ? 2 : 1;
        return 0;
    case '<':
    case '>':
        return lex_redir(p, -1, t);
    default:
        break;
    }
    long len = scan_word(p);
    if (len < 0)
        return -1;
    size_t digits = strspn(s, "0123456789");
    if (digits && digits == (size_t)len && digits < 2 &&
        (s[len] == '>' || s[len] == '<')) {
        p->pos += (size_t)len;
        return lex_redir(p, s[0] - '0', t);
    }
    if (++p->words > SH_MAX_WORDS)
        return set_err(p, "command too long", NULL);
    t->type = T_WORD;
    t->text = dup_n(s, (size_t)len);
    p->pos += (size_t)len;
    return t->text ? 0 : -1;
}

static struct token *peek(struct parser *p)
{
    if (!p->have_tok) {
        if (lex(p, &p->tok)) {
            p->tok.type = T_EOF;
            if (!p->err[0])
                set_err(p, "out of memory", NULL);
        }
        p->have_tok = 1;
    }
    return &p->tok;
}

static void consume(struct parser *p)
{
    p->have_tok = 0;    /* ownership of tok.text moved or freed by caller */
}

static void drop(struct parser *p)
{
    free(p->tok.text);
    p->tok.text = NULL;
    p->have_tok = 0;
}

/* Parser. */

static void node_free(struct node *n)
{
    if (!n)
        return;
    node_free(n->l);
    node_free(n->r);
    for (size_t i = 0; i < n->nwords; i++)
        free(n->words[i]);
    free(n->words);
    while (n->redirs) {
        struct redir *r = n->redirs;
        n->redirs = r->next;
        free(r->target);
        free(r);
    }
    free(n);
}

static struct node *new_node(enum node_type type)
{
    struct node *n = calloc(1, sizeof(struct node));
    if (n)
        n->type = type;
    return n;
}

static struct node *binary(enum node_type type, struct node *l,
                           struct node *r)
{
    struct node *n = new_node(type);
    if (!n) {
        node_free(l);
        node_free(r);
        return NULL;
    }
    n->type = type;
    n->l = l;
    n->r = r;
    return n;
}

static const char *tok_name(enum tok_type t)
{
    static const char *const names[] = {
        "end of file", "word", ";", "newline", "&", "&&", "||", "|", "(",
        ")", "redirection",
    };
    return names[t];
}

static struct node *parse_list(struct parser *p);

static int add_redir(struct node *n, struct token *t)
{
    struct redir *r = calloc(1, sizeof(*r));
    if (!r)
        return -1;
    r->fd = t->fd;
    r->op = t->op;
    r->target = t->text;
    t->text = NULL;
    struct redir **pp = &n->redirs;
    while (*pp)
        pp = &(*pp)->next;
    *pp = r;
    return 0;
}

static int add_word(struct node *n, char *w)
{
    char **nw = realloc(n->words, (n->nwords + 1) * sizeof(*nw));
    if (!nw)
        return -1;
    n->words = nw;
    n->words[n->nwords++] = w;
    return 0;
}

static struct node *parse_command(struct parser *p)
{
    struct token *t = peek(p);
    struct node *n = new_node(N_CMD);
    if (!n)
        return NULL;
    if (t->type == T_LPAREN) {
        consume(p);
        if (++p->depth > SH_MAX_DEPTH) {
            set_err(p, "nesting too deep", NULL);
            node_free(n);
            return NULL;
        }
        n->type = N_SUB;
        n->l = parse_list(p);
        p->depth--;
        if (!n->l || peek(p)->type != T_RPAREN) {
            if (!p->err[0])
                set_err(p, "syntax error: unexpected ", tok_name(peek(p)->type));
            node_free(n);
            return NULL;
        }
        consume(p);
        while ((t = peek(p))->type == T_REDIR) {
            if (add_redir(n, t)) {
                node_free(n);
                return NULL;
            }
            consume(p);
        }
        return n;
    }
    n->type = N_CMD;
    while ((t = peek(p))->type == T_WORD || t->type == T_REDIR) {
        int r = t->type == T_WORD ? add_word(n, t->text) : add_redir(n, t);
        if (r) {
            node_free(n);
            return NULL;
        }
        consume(p);
    }
    if (!n->nwords && !n->redirs) {
        set_err(p, "syntax error: unexpected ", tok_name(t->type));
        node_free(n);
        return NULL;
    }
    return n;
}

static struct node *parse_pipeline(struct parser *p)
{
    int bang = 0;
    struct token *t = peek(p);
    if (t->type == T_WORD && !strcmp(t->text, "!")) {
        drop(p);
        bang = 1;
    }
    struct node *n = parse_command(p);
    while (n && peek(p)->type == T_PIPE) {
        consume(p);
        while (peek(p)->type == T_NL)
            consume(p);
        struct node *r = parse_command(p);
        n = r ? binary(N_PIPE, n, r) : (node_free(n), NULL);
    }
    if (n && bang)
        n = binary(N_NOT, n, NULL);
    return n;
}

static struct node *parse_and_or(struct parser *p)
{
    struct node *n = parse_pipeline(p);
    for (;;) {
        enum tok_type tt = peek(p)->type;
        if (!n || (tt != T_AND && tt != T_OR))
            return n;
        consume(p);
        while (peek(p)->type == T_NL)
            consume(p);
        struct node *r = parse_pipeline(p);
        n = r ? binary(tt == T_AND ? N_AND : N_OR, n, r)
              : (node_free(n), NULL);
    }
}

static int list_end(enum tok_type t)
{
    return t == T_EOF || t == T_RPAREN;
}

static struct node *parse_list(struct parser *p)
{
    while (peek(p)->type == T_NL || peek(p)->type == T_SEMI)
        consume(p);
    if (list_end(peek(p)->type)) {
        set_err(p, "syntax error: unexpected ", tok_name(peek(p)->type));
        return NULL;
    }
    struct node *n = parse_and_or(p);
    for (;;) {
        enum tok_type tt = peek(p)->type;
        if (!n || (tt != T_SEMI && tt != T_NL && tt != T_AMP))
            return n;
        while ((tt = peek(p)->type) == T_SEMI || tt == T_NL || tt == T_AMP)
            consume(p);
        if (list_end(peek(p)->type))
            return n;
        struct node *r = parse_and_or(p);
        n = r ? binary(N_SEQ, n, r) : (node_free(n), NULL);
    }
}

static struct node *parse(const char *src, char *err, size_t errlen)
{
    struct parser p;
    memset(&p, 0, sizeof(p));
    p.src = src;
    struct node *n = parse_list(&p);
    if (n && (peek(&p)->type != T_EOF || p.err[0])) {
        set_err(&p, "syntax error: unexpected ", tok_name(peek(&p)->type));
        node_free(n);
        n = NULL;
    }
    if (p.have_tok)
        drop(&p);
    if (!n)
        snprintf(err, errlen, "%s", p.err[0] ? p.err : "syntax error");
    return n;
}

/* Variables. */

const char *sim_shell_getvar(struct sim_shell *sh, const char *name)
{
    for (size_t i = 0; i < sh->nvars; i++)
        if (!strcmp(sh->vars[i].name, name))
            return sh->vars[i].value;
    return NULL;
}

int sim_shell_setvar(struct sim_shell *sh, const char *name,
                     const char *value)
{
    for (size_t i = 0; i < sh->nvars; i++)
        if (!strcmp(sh->vars[i].name, name)) {
            char *v = strdup(value);
            if (!v)
                return -1;
            free(sh->vars[i].value);
            sh->vars[i].value = v;
            return 0;
        }
    if (sh->nvars == SH_MAX_VARS)
        return -1;
    char *n = strdup(name), *v = strdup(value);
    if (!n || !v) {
        free(n);
        free(v);
        return -1;
    }
    sh->vars[sh->nvars].name = n;
    sh->vars[sh->nvars].value = v;
    sh->nvars++;
    return 0;
}

/* Expansion. */

struct expansion {
    struct dynbuf val;  /* quotes removed */
    struct dynbuf pat;  /* glob pattern: quoted specials escaped */
    int magic;          /* unquoted glob characters present */
};

static int is_name_char(char c, int first)
{
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (!first && c >= '0' && c <= '9');
}

static void add_lit(struct expansion *e, const char *s, size_t n)
{
    dynbuf_add(&e->val, s, n);
    for (size_t i = 0; i < n; i++) {
        if (strchr("*?[]\\", s[i]))
            dynbuf_addc(&e->pat, '\\');
        dynbuf_addc(&e->pat, s[i]);
    }
}

/* $... at s (s[0] == '$'); returns characters consumed. */
static size_t expand_var(struct sim_shell *sh, const char *s,
                         struct expansion *e)
{
    char num[24];
    if (s[1] == '?' || s[1] == '$' || s[1] == '#') {
        snprintf(num, sizeof(num), "%d",
                 s[1] == '?' ? sh->status : s[1] == '$' ? sh->pid : 0);
        add_lit(e, num, strlen(num));
        return 2;
    }
    if (s[1] >= '0' && s[1] <= '9')
        return 2;   /* positional parameters are empty */
    const char *name = s + 1;
    size_t len = 0, used;
    if (s[1] == '{') {
        name = s + 2;
        while (is_name_char(name[len], len == 0))
            len++;
        if (name[len] != '}') {
            add_lit(e, "$", 1);
            return 1;
        }
        used = len + 3;
    } else {
        while (is_name_char(name[len], len == 0))
            len++;
        if (!len) {
            add_lit(e, "$", 1);
            return 1;
        }
        used = len + 1;
    }
    char key[64];
    if (len < sizeof(key)) {
        memcpy(key, name, len);
        key[len] = '\0';
        const char *v = sim_shell_getvar(sh, key);
        if (v)
            add_lit(e, v, strlen(v));
    }
    return used;
}

static void expand_word(struct sim_shell *sh, const char *raw,
                        struct expansion *e)
{
    const char *s = raw;
    while (*s) {
        if (*s == '\'') {
            const char *q = strchr(s + 1, '\'');
            add_lit(e, s + 1, (size_t)(q - s - 1));
            s = q + 1;
        } else if (*s == '"') {
            s++;
            while (*s && *s != '"') {
                if (*s == '\\' && s[1] && strchr("$`\"\\\n", s[1])) {
                    add_lit(e, s + 1, 1);
                    s += 2;
                } else if (*s == '$') {
                    s += expand_var(sh, s, e);
                } else {
                    add_lit(e, s, 1);
                    s++;
                }
            }
            if (*s)
                s++;
        } else if (*s == '\\') {
            if (s[1]) {
                add_lit(e, s + 1, 1);
                s += 2;
            } else {
                s++;
            }
        } else if (*s == '$') {
            s += expand_var(sh, s, e);
        } else {
            if (*s == '*' || *s == '?' || *s == '[')
                e->magic = 1;
            dynbuf_addc(&e->val, *s);
            dynbuf_addc(&e->pat, *s);
            s++;
        }
    }
}

struct argv_list {
    char **v;
    size_t n, cap;
    int overflow;
};

static int argv_push(void *arg, const char *s)
{
    struct argv_list *a = arg;
    if (a->n + 2 > SH_MAX_ARGS) {
        a->overflow = 1;
        return 1;
    }
    if (a->n + 2 > a->cap) {
        size_t cap = a->cap ? a->cap * 2 : 16;
        char **nv = realloc(a->v, cap * sizeof(*nv));
        if (!nv) {
            a->overflow = 1;
            return 1;
        }
        a->v = nv;
        a->cap = cap;
    }
    if (!(a->v[a->n] = strdup(s))) {
        a->overflow = 1;
        return 1;
    }
    a->v[++a->n] = NULL;
    return 0;
}

static void argv_free(struct argv_list *a)
{
    for (size_t i = 0; i < a->n; i++)
        free(a->v[i]);
    free(a->v);
    memset(a, 0, sizeof(*a));
}

/* Expand one word into fields (several when a glob matches). */
static int expand_into(struct sim_shell *sh, const char *raw, int glob,
                       struct argv_list *out)
{
    struct expansion e;
    dynbuf_init(&e.val, SH_MAX_INPUT * 4);
    dynbuf_init(&e.pat, SH_MAX_INPUT * 8);
    e.magic = 0;
    expand_word(sh, raw, &e);
    int matched = 0;
    if (glob && e.magic)
        matched = sim_fs_glob(sh->dev->fs, dynbuf_str(&e.pat), argv_push, out);
    if (matched <= 0)
        argv_push(out, dynbuf_str(&e.val));
    dynbuf_free(&e.val);
    dynbuf_free(&e.pat);
    return out->overflow ? -1 : 0;
}

static char *expand_single(struct sim_shell *sh, const char *raw)
{
    struct expansion e;
    dynbuf_init(&e.val, SH_MAX_INPUT * 4);
    dynbuf_init(&e.pat, SH_MAX_INPUT * 8);
    e.magic = 0;
    expand_word(sh, raw, &e);
    dynbuf_free(&e.pat);
    return dynbuf_take(&e.val, NULL);
}

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

static int apply_redirs(struct sim_shell *sh, struct redir *r, struct io *io,
                        struct opened *o)
{
    for (; r; r = r->next) {
        char *target = expand_single(sh, r->target);
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

static int exec_node(struct sim_shell *sh, struct node *n, struct io *io);

static int is_assignment(const char *w)
{
    if (!is_name_char(w[0], 1))
        return 0;
    size_t i = 1;
    while (is_name_char(w[i], 0))
        i++;
    return w[i] == '=';
}

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
    dynbuf_free(&b);
}

static int exec_simple(struct sim_shell *sh, struct node *n, struct io *io)
{
    size_t first = 0;
    while (first < n->nwords && is_assignment(n->words[first]))
        first++;
    struct argv_list args;
    memset(&args, 0, sizeof(args));
    for (size_t i = first; i < n->nwords; i++)
        if (expand_into(sh, n->words[i], 1, &args)) {
            sink_puts(io_err(io), "sh: argument list too long\n");
            argv_free(&args);
            return 1;
        }
    if (!args.n)
        for (size_t i = 0; i < first; i++) {
            char *eq = strchr(n->words[i], '=');
            char *v = expand_single(sh, eq + 1);
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
    argv_free(&args);
    return status;
}

static int exec_subshell(struct sim_shell *sh, struct node *n, struct io *io)
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

static int exec_pipe(struct sim_shell *sh, struct node *n, struct io *io)
{
    struct buf_sink bs = {{buf_sink_write, NULL}, {0}};
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

static int exec_node(struct sim_shell *sh, struct node *n, struct io *io)
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
    struct node *n = parse(cmd, msg, sizeof(msg));
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
    node_free(n);
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
