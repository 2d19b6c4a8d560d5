/*
 * Build-time generator of the man page: copies docs/systrace.1.in from
 * stdin to stdout, putting the OPTIONS section, made from the option table
 * (src/optdefs.h), where the template's line "@OPTIONS@" stands.  So the
 * page lists exactly the options the parser knows, with --help's text and
 * the table's longer man text.
 *
 * Usage: genman <docs/systrace.1.in >build/systrace.1
 */
#include <stdio.h>
#include <string.h>

#include "src/optdefs.h"

/* Plain text for roff: backslashes and hyphens escaped, no line may
 * start with a control character. */
static void text(const char *s)
{
    for (; *s; s++) {
        if (*s == '\\')
            fputs("\\e", stdout);
        else if (*s == '-')
            fputs("\\-", stdout);
        else
            putchar(*s);
    }
}

static void spec(const struct optdef *d)
{
    if (d->shrt) {
        printf("\\fB\\-%c\\fR", d->shrt);
        if (d->arg) {
            fputs(" \\fI", stdout);
            text(d->arg);
            fputs("\\fR", stdout);
        }
        if (d->lng)
            fputs(", ", stdout);
    }
    if (d->lng) {
        fputs("\\fB\\-\\-", stdout);
        text(d->lng);
        fputs("\\fR", stdout);
        if (d->arg) {
            fputs(d->flags & OPTF_OPTARG ? "[=\\fI" : "=\\fI", stdout);
            text(d->arg);
            fputs(d->flags & OPTF_OPTARG ? "\\fR]" : "\\fR", stdout);
        }
    }
    putchar('\n');
}

static void sentence(const char *s)
{
    /* --help's text starts lower case and has no full stop */
    char first = s[0] >= 'a' && s[0] <= 'z' ? (char)(s[0] - 'a' + 'A') : s[0];
    printf("\\&%c", first);
    text(s + 1);
    puts(".");
}

static void options(void)
{
    for (int sec = 0; sec < SEC_COUNT; sec++) {
        fputs(".SS \"", stdout);
        text(opt_section_titles[sec]);
        puts("\"");
        for (unsigned i = 0; i < st_noptdefs; i++) {
            const struct optdef *d = &st_optdefs[i];
            if (d->sec != (enum opt_section)sec || (d->flags & OPTF_HIDDEN))
                continue;
            puts(".TP");
            spec(d);
            sentence(d->help);
            if (d->man) {
                fputs("\\&", stdout);
                text(d->man);
                putchar('\n');
            }
        }
    }
}

int main(void)
{
    char line[4096];
    int done = 0;
    while (fgets(line, sizeof(line), stdin)) {
        if (!strcmp(line, "@OPTIONS@\n")) {
            options();
            done = 1;
        } else {
            fputs(line, stdout);
        }
    }
    if (!done) {
        fputs("genman: the template has no @OPTIONS@ line\n", stderr);
        return 1;
    }
    return ferror(stdout) ? 1 : 0;
}
