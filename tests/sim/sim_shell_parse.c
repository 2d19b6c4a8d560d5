/*
 * Lexer and recursive-descent parser of the simulator's shell (grammar in
 * sim_shell.c).  Bounded: SH_MAX_WORDS words, SH_MAX_DEPTH nesting; a
 * command past the limits is a syntax error, never unbounded memory.
 */
#include "sim_shell_ast.h"

#include <stdlib.h>
#include <string.h>

enum tok_type {
    T_EOF, T_WORD, T_SEMI, T_NL, T_AMP, T_AND, T_OR, T_PIPE, T_LPAREN,
    T_RPAREN, T_REDIR,
};

struct token {
    enum tok_type type;
    char *text;         /* T_WORD: raw text; T_REDIR: target (raw) */
    int fd;             /* T_REDIR */
    enum sh_redir_op op;
};

struct parser {
    const char *src;
    size_t pos;
    struct token tok;   /* current lookahead */
    int have_tok;
    int depth;
    int loops;          /* inside while: `do` and `done` end a list */
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

void sh_node_free(struct sh_node *n)
{
    if (!n)
        return;
    sh_node_free(n->l);
    sh_node_free(n->r);
    for (size_t i = 0; i < n->nwords; i++)
        free(n->words[i]);
    free(n->words);
    while (n->redirs) {
        struct sh_redir *r = n->redirs;
        n->redirs = r->next;
        free(r->target);
        free(r);
    }
    free(n);
}

static struct sh_node *new_node(enum sh_node_type type)
{
    struct sh_node *n = calloc(1, sizeof(struct sh_node));
    if (n)
        n->type = type;
    return n;
}

static struct sh_node *binary(enum sh_node_type type, struct sh_node *l,
                           struct sh_node *r)
{
    struct sh_node *n = new_node(type);
    if (!n) {
        sh_node_free(l);
        sh_node_free(r);
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

static struct sh_node *parse_list(struct parser *p);
static int list_end(struct parser *p);

static int add_redir(struct sh_node *n, struct token *t)
{
    struct sh_redir *r = calloc(1, sizeof(*r));
    if (!r)
        return -1;
    r->fd = t->fd;
    r->op = t->op;
    r->target = t->text;
    t->text = NULL;
    struct sh_redir **pp = &n->redirs;
    while (*pp)
        pp = &(*pp)->next;
    *pp = r;
    return 0;
}

static int add_word(struct sh_node *n, char *w)
{
    char **nw = realloc(n->words, (n->nwords + 1) * sizeof(*nw));
    if (!nw)
        return -1;
    n->words = nw;
    n->words[n->nwords++] = w;
    return 0;
}

/* An unquoted reserved word where a command starts. */
static int reserved(struct parser *p, const char *word)
{
    struct token *t = peek(p);
    return t->type == T_WORD && !strcmp(t->text, word);
}

/* `while LIST; do LIST; done`, the `while` already dropped. */
static struct sh_node *parse_while(struct parser *p, struct sh_node *n)
{
    n->type = N_WHILE;
    p->loops++;
    n->l = parse_list(p);
    if (n->l && reserved(p, "do")) {
        drop(p);
        n->r = parse_list(p);
    }
    int ok = n->r && reserved(p, "done");
    p->loops--;
    p->depth--;
    if (!ok) {
        if (!p->err[0])
            set_err(p, "syntax error: ", "while without do ... done");
        sh_node_free(n);
        return NULL;
    }
    drop(p);
    return n;
}

static struct sh_node *parse_command(struct parser *p)
{
    struct token *t = peek(p);
    struct sh_node *n = new_node(N_CMD);
    if (!n)
        return NULL;
    if (reserved(p, "while")) {
        drop(p);
        if (++p->depth > SH_MAX_DEPTH) {
            set_err(p, "nesting too deep", NULL);
            sh_node_free(n);
            return NULL;
        }
        return parse_while(p, n);
    }
    if (t->type == T_LPAREN) {
        consume(p);
        if (++p->depth > SH_MAX_DEPTH) {
            set_err(p, "nesting too deep", NULL);
            sh_node_free(n);
            return NULL;
        }
        n->type = N_SUB;
        n->l = parse_list(p);
        p->depth--;
        if (!n->l || peek(p)->type != T_RPAREN) {
            if (!p->err[0])
                set_err(p, "syntax error: unexpected ", tok_name(peek(p)->type));
            sh_node_free(n);
            return NULL;
        }
        consume(p);
        while ((t = peek(p))->type == T_REDIR) {
            if (add_redir(n, t)) {
                sh_node_free(n);
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
            sh_node_free(n);
            return NULL;
        }
        consume(p);
    }
    if (!n->nwords && !n->redirs) {
        set_err(p, "syntax error: unexpected ", tok_name(t->type));
        sh_node_free(n);
        return NULL;
    }
    return n;
}

static struct sh_node *parse_pipeline(struct parser *p)
{
    int bang = 0;
    struct token *t = peek(p);
    if (t->type == T_WORD && !strcmp(t->text, "!")) {
        drop(p);
        bang = 1;
    }
    struct sh_node *n = parse_command(p);
    while (n && peek(p)->type == T_PIPE) {
        consume(p);
        while (peek(p)->type == T_NL)
            consume(p);
        struct sh_node *r = parse_command(p);
        n = r ? binary(N_PIPE, n, r) : (sh_node_free(n), NULL);
    }
    if (n && bang)
        n = binary(N_NOT, n, NULL);
    return n;
}

static struct sh_node *parse_and_or(struct parser *p)
{
    struct sh_node *n = parse_pipeline(p);
    for (;;) {
        enum tok_type tt = peek(p)->type;
        if (!n || (tt != T_AND && tt != T_OR))
            return n;
        consume(p);
        while (peek(p)->type == T_NL)
            consume(p);
        struct sh_node *r = parse_pipeline(p);
        n = r ? binary(tt == T_AND ? N_AND : N_OR, n, r)
              : (sh_node_free(n), NULL);
    }
}

static int list_end(struct parser *p)
{
    enum tok_type t = peek(p)->type;
    return t == T_EOF || t == T_RPAREN ||
           (p->loops && (reserved(p, "do") || reserved(p, "done")));
}

static struct sh_node *parse_list(struct parser *p)
{
    while (peek(p)->type == T_NL || peek(p)->type == T_SEMI)
        consume(p);
    if (list_end(p)) {
        set_err(p, "syntax error: unexpected ", tok_name(peek(p)->type));
        return NULL;
    }
    struct sh_node *n = parse_and_or(p);
    for (;;) {
        enum tok_type tt = peek(p)->type;
        if (!n || (tt != T_SEMI && tt != T_NL && tt != T_AMP))
            return n;
        while ((tt = peek(p)->type) == T_SEMI || tt == T_NL || tt == T_AMP)
            consume(p);
        if (list_end(p))
            return n;
        struct sh_node *r = parse_and_or(p);
        n = r ? binary(N_SEQ, n, r) : (sh_node_free(n), NULL);
    }
}

struct sh_node *sh_parse(const char *src, char *err, size_t errlen)
{
    struct parser p;
    memset(&p, 0, sizeof(p));
    p.src = src;
    struct sh_node *n = parse_list(&p);
    if (n && (peek(&p)->type != T_EOF || p.err[0])) {
        set_err(&p, "syntax error: unexpected ", tok_name(peek(&p)->type));
        sh_node_free(n);
        n = NULL;
    }
    if (p.have_tok)
        drop(&p);
    if (!n)
        snprintf(err, errlen, "%s", p.err[0] ? p.err : "syntax error");
    return n;
}
