/*
 * Default output names and the free-name rule; see outname.h.
 * "Exists" is lstat's answer, so a dangling symlink or a FIFO of that name
 * is kept too.  The check and the final rename are not atomic: a file that
 * appears in between is replaced, as with -o.
 */
#include "outname.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/plat.h"

int outname_is_stdin(const char *from_file)
{
    return from_file && !strcmp(from_file, "-");
}

static int exists(const char *path)
{
    struct plat_stat st;
    return plat_lstat(path, &st) == 0 || errno != ENOENT;
}

/* "dir/dump.html" + k -> "dir/dump-k.html" (the suffix goes before the
 * extension the default name was given). */
static char *numbered(const char *path, const char *ext, unsigned k)
{
    size_t stem = strlen(path) - strlen(ext);
    size_t n = stem + strlen(ext) + 16;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%.*s-%u%s", (int)stem, path, k, ext);
    return p;
}

int outname_pick(const struct st_options *o, struct outname *n, char *err, size_t errlen)
{
    n->path = n->taken = NULL;
    struct st_options d = *o;
    if (outname_is_stdin(o->from_file))
        d.from_file = NULL;     /* the live default: trace.html */
    char *def = options_output_path(&d);
    if (!def) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (o->output) {
        n->path = def;
        return 0;
    }
    return outname_free_of(def, o->json ? ".json" : ".html", n, err, errlen);
}

int outname_free_of(char *def, const char *ext, struct outname *n, char *err, size_t errlen)
{
    n->path = n->taken = NULL;
    if (!exists(def)) {
        n->path = def;
        return 0;
    }
    for (unsigned k = 1; k < OUTNAME_TRIES; k++) {
        char *p = numbered(def, ext, k);
        if (!p) {
            free(def);
            goto oom;
        }
        if (!exists(p)) {
            n->path = p;
            n->taken = def;
            return 0;
        }
        free(p);
    }
    snprintf(err, errlen, "%s and %d numbered names after it exist; use -o to name "
             "the output", def, OUTNAME_TRIES - 1);
    free(def);
    return -1;
oom:
    snprintf(err, errlen, "out of memory");
    return -1;
}

int outname_piece(const char *out, unsigned k, struct outname *n, char *err, size_t errlen)
{
    const char *slash = plat_last_sep(out), *dot = strrchr(out, '.');
    if (!dot || (slash && dot < slash) || dot == (slash ? slash + 1 : out))
        dot = out + strlen(out);
    size_t len = strlen(out) + 16;
    char *def = malloc(len);
    n->path = n->taken = NULL;
    if (!def) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    snprintf(def, len, "%.*s.%03u%s", (int)(dot - out), out, k, dot);
    return outname_free_of(def, dot, n, err, errlen);
}

void outname_free(struct outname *n)
{
    free(n->path);
    free(n->taken);
    n->path = n->taken = NULL;
}
