/* libFuzzer target: the parsers of host kernel text.  data[0] picks one:
 * the ftrace line normalisation (all options, fed in two chunks split at a
 * data-chosen point, and as one line the way the --stream merge does), available_events with category resolution and -l,
 * or the restore value of each tracefs file kind. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "agents/linux/ftrace_cats.h"
#include "agents/linux/ftrace_kstate.h"
#include "formats/atrace/ftrace_norm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static enum st_err count(void *ctx, const void *p, size_t n)
{
    (void)p;
    *(uint64_t *)ctx += n;
    return ST_OK;
}

static void norm(const uint8_t *data, size_t size, int opts)
{
    struct tgid_map *m = tgid_map_new();
    static const char listing[] = "/proc/10/task/10 /proc/10/task/11 /proc/5/task/6";
    tgid_map_parse(m, listing, sizeof(listing) - 1);
    struct fnorm_opts o = {.flags = opts & 1, .func_events = opts & 2,
                           .tgids = opts & 4 ? m : NULL, .watch = opts & 8 ? "name=1" : NULL};
    uint64_t out = 0;
    struct fnorm *f = fnorm_new(&o, count, &out);
    char *copy = malloc(size ? size : 1);
    memcpy(copy, data, size);
    uint64_t ns;
    fnorm_line_time(copy, size, &ns);
    size_t cut = size ? (size_t)data[0] * 7 % size : 0;
    if (!fnorm_feed(f, copy, cut) && !fnorm_feed(f, copy + cut, size - cut))
        fnorm_finish(f);
    /* edits keep the length; inserts only add */
    if (out < size)
        __builtin_trap();
    /* the merge's path: the whole input as one line, fields parsed first */
    memcpy(copy, data, size);
    struct fnorm_fields fl;
    int has = fnorm_fields(copy, size, &fl);
    char *dst = malloc(size + FNORM_GROW);
    size_t examined = size < FNORM_LINE_MAX ? size : FNORM_LINE_MAX;
    if (fnorm_copy_line(f, dst, copy, size, examined, has ? &fl : NULL) < size)
        __builtin_trap();
    free(dst);
    free(copy);
    fnorm_free(f);
    tgid_map_free(m);
}

static void cats(const uint8_t *data, size_t size)
{
    struct evset *s = evset_new();
    struct evlist ev = {0};
    struct dynbuf un, list;
    dynbuf_init(&un, 1u << 20);
    dynbuf_init(&list, 1u << 20);
    char *want[] = {"sched", "irq", "freq", "a/*", "x:y", "sched/sched_switch", "/", ":"};
    if (!evset_parse(s, (const char *)data, size)) {
        fcat_resolve(s, want, sizeof(want) / sizeof(*want), &ev, &un);
        fcat_list(s, &list);
    }
    evlist_free(&ev);
    dynbuf_free(&un);
    dynbuf_free(&list);
    evset_free(s);
}

static void values(const uint8_t *data, size_t size)
{
    struct dynbuf out;
    dynbuf_init(&out, 1u << 20);
    for (int k = KV_PLAIN; k <= KV_ENABLE; k++)
        kstate_value((enum kval_kind)k, (const char *)data, size, &out);
    dynbuf_free(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    switch (data[0] % 4) {
    case 0:
    case 1:
        norm(data + 1, size - 1, data[0] >> 2);
        break;
    case 2:
        cats(data + 1, size - 1);
        break;
    default:
        values(data + 1, size - 1);
        break;
    }
    return 0;
}
