/* --help text, generated from the option table (optdefs.h). */
#ifndef SYSTRACE_USAGE_H
#define SYSTRACE_USAGE_H

#include <stddef.h>
#include <stdio.h>

struct optdef;

/* The whole --help text. */
void usage_print(FILE *out);

/* How an option is written in --help: "-t N, --time=N", "--stream". */
void usage_spec(const struct optdef *d, char *out, size_t n);

#endif
