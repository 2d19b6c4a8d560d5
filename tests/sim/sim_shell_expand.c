/*
 * Word expansion for the simulator's shell: quote removal, $? $$ $NAME
 * ${NAME}, and globs against the device file system (sim_fs_glob),
 * sorted, left as written when nothing matches.  No field splitting.
 */
#include "sim_shell_ast.h"

#include <stdlib.h>
#include <string.h>

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

int sh_is_name_char(char c, int first)
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
        while (sh_is_name_char(name[len], len == 0))
            len++;
        if (name[len] != '}') {
            add_lit(e, "$", 1);
            return 1;
        }
        used = len + 3;
    } else {
        while (sh_is_name_char(name[len], len == 0))
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


static int argv_push(void *arg, const char *s)
{
    struct sh_argv *a = arg;
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

void sh_argv_free(struct sh_argv *a)
{
    for (size_t i = 0; i < a->n; i++)
        free(a->v[i]);
    free(a->v);
    memset(a, 0, sizeof(*a));
}

/* Expand one word into fields (several when a glob matches). */
int sh_expand_fields(struct sim_shell *sh, const char *raw,
                     struct sh_argv *out)
{
    struct expansion e;
    dynbuf_init(&e.val, SH_MAX_INPUT * 4);
    dynbuf_init(&e.pat, SH_MAX_INPUT * 8);
    e.magic = 0;
    expand_word(sh, raw, &e);
    int matched = 0;
    if (e.magic)
        matched = sim_fs_glob(sh->dev->fs, dynbuf_str(&e.pat), argv_push, out);
    if (matched <= 0)
        argv_push(out, dynbuf_str(&e.val));
    dynbuf_free(&e.val);
    dynbuf_free(&e.pat);
    return out->overflow ? -1 : 0;
}

char *sh_expand_single(struct sim_shell *sh, const char *raw)
{
    struct expansion e;
    dynbuf_init(&e.val, SH_MAX_INPUT * 4);
    dynbuf_init(&e.pat, SH_MAX_INPUT * 8);
    e.magic = 0;
    expand_word(sh, raw, &e);
    dynbuf_free(&e.pat);
    return dynbuf_take(&e.val, NULL);
}
