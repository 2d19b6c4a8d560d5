/*
 * The simulator shell's syntax tree, shared by the parser
 * (sim_shell_parse.c), word expansion (sim_shell_expand.c) and the
 * executor (sim_shell.c).  Limits are here so all three agree.
 */
#ifndef ADBSIM_SIM_SHELL_AST_H
#define ADBSIM_SIM_SHELL_AST_H

#include <stddef.h>

#include "sim_shell.h"

#define SH_MAX_INPUT (64 * 1024)
#define SH_MAX_WORDS 4096
#define SH_MAX_DEPTH 32
#define SH_MAX_ARGS 8192
#define SH_PIPE_MAX (64u << 20)

enum sh_redir_op { R_OUT, R_APPEND, R_IN, R_DUP_OUT, R_DUP_IN };

struct sh_redir {
    struct sh_redir *next;
    int fd;
    enum sh_redir_op op;
    char *target;
};

/* N_WHILE: l the condition list, r the body */
enum sh_node_type { N_CMD, N_SUB, N_AND, N_OR, N_SEQ, N_NOT, N_PIPE, N_WHILE };

struct sh_node {
    enum sh_node_type type;
    struct sh_node *l, *r;
    char **words;
    size_t nwords;
    struct sh_redir *redirs;
};

/* Parse a command string; NULL with a message in err on failure. */
struct sh_node *sh_parse(const char *src, char *err, size_t errlen);
void sh_node_free(struct sh_node *n);

/* Expansion (quotes, $vars, globs). */
struct sh_argv {
    char **v;           /* NULL-terminated */
    size_t n, cap;
    int overflow;
};
int sh_is_name_char(char c, int first);
/* One word into fields (several when a glob matches); -1 past limits. */
int sh_expand_fields(struct sim_shell *sh, const char *raw, struct sh_argv *out);
/* One word into one string (redirection targets, assignments). */
char *sh_expand_single(struct sim_shell *sh, const char *raw);
void sh_argv_free(struct sh_argv *a);

#endif
