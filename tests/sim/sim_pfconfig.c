/*
 * The parts of a TraceConfig (perfetto_config.proto) the simulated
 * perfetto uses, from its binary form or its text form (protobuf text
 * format, as `perfetto --txt` reads it).  The text reader knows the
 * grammar's shape (names, `:` values, quoted strings, nested `{ }`
 * blocks, `#` comments) and takes the fields it needs wherever they are;
 * anything unbalanced or unterminated is malformed, as for perfetto.
 *
 * TraceConfig: buffers 1 { size_kb 1 }, data_sources 2 { config 1 {
 * name 1, ftrace_config 100 { ftrace_events 1, atrace_categories 2,
 * atrace_apps 3, compact_sched 12 { enabled 1 } }, process_stats_config 103
 * { proc_stats_poll_ms 4 }, android_power_config 106 { battery_poll_ms 1,
 * collect_power_rails 3 } } }, duration_ms 3,
 * write_into_file 8, file_write_period_ms 9.
 */
#include "sim_perfetto.h"

#include "formats/perfetto/pb.h"

#include <stdlib.h>
#include <string.h>

void pf_config_free(struct pf_config *c)
{
    for (size_t i = 0; i < c->nevents; i++)
        free(c->events[i]);
    for (size_t i = 0; i < c->ncats; i++)
        free(c->cats[i]);
    for (size_t i = 0; i < c->napps; i++)
        free(c->apps[i]);
    for (size_t i = 0; i < c->nsources; i++)
        free(c->sources[i]);
    memset(c, 0, sizeof(*c));
}

static int add(char **list, size_t *n, const char *s, size_t len)
{
    if (*n == PF_MAX_ITEMS)
        return -1;
    list[*n] = strndup(s, len);
    return list[*n] ? (int)(++*n, 0) : -1;
}

static int note_source(struct pf_config *c, const char *name, size_t len)
{
    if (len == 19 && !memcmp(name, "linux.process_stats", 19))
        c->process_stats = 1;
    return add(c->sources, &c->nsources, name, len);
}

/* Text. */

static int set_field(struct pf_config *c, const char *key, size_t kl, const char *v,
                     size_t vl, const char *path)
{
#define KEY(k) (kl == sizeof(k) - 1 && !memcmp(key, k, kl))
    if (KEY("duration_ms") && !*path)
        c->duration_ms = (uint32_t)strtoul(v, NULL, 10);
    else if (KEY("write_into_file") && !*path)
        c->write_into_file = vl == 4 && !memcmp(v, "true", 4);
    else if (KEY("file_write_period_ms") && !*path)
        c->file_write_period_ms = (uint32_t)strtoul(v, NULL, 10);
    else if (KEY("size_kb") && !strcmp(path, "buffers") && !c->buffer_kb)
        c->buffer_kb = (uint32_t)strtoul(v, NULL, 10);
    else if (KEY("ftrace_events"))
        return add(c->events, &c->nevents, v, vl);
    else if (KEY("atrace_categories"))
        return add(c->cats, &c->ncats, v, vl);
    else if (KEY("atrace_apps"))
        return add(c->apps, &c->napps, v, vl);
    else if (KEY("enabled") && strstr(path, "compact_sched"))
        c->compact_sched = vl == 4 && !memcmp(v, "true", 4);
    else if (KEY("proc_stats_poll_ms"))
        c->proc_poll_ms = (uint32_t)strtoul(v, NULL, 10);
    else if (KEY("battery_poll_ms"))
        c->battery_poll_ms = (uint32_t)strtoul(v, NULL, 10);
    else if (KEY("collect_power_rails"))
        c->power_rails = vl == 4 && !memcmp(v, "true", 4);
    else if (KEY("name") && !strcmp(path, "data_sources/config"))
        return note_source(c, v, vl);
#undef KEY
    return 0;
}

int pf_config_text(const char *p, size_t n, struct pf_config *c, char *err, size_t errlen)
{
    const char *end = p + n;
    char path[256] = "";    /* enclosing block names, '/'-joined */
    memset(c, 0, sizeof(*c));
    while (p < end) {
        if (strchr(" \t\r\n;,", *p)) {
            p++;
        } else if (*p == '#') {
            while (p < end && *p != '\n')
                p++;
        } else if (*p == '}') {
            char *slash = strrchr(path, '/');
            if (!*path) {
                snprintf(err, errlen, "unbalanced }");
                return -1;
            }
            *(slash ? slash : path) = 0;
            p++;
        } else {
            const char *key = p;
            while (p < end && (*p == '_' || (*p >= 'a' && *p <= 'z') ||
                               (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
                p++;
            size_t kl = (size_t)(p - key);
            while (p < end && (*p == ' ' || *p == '\t'))
                p++;
            if (!kl || p >= end) {
                snprintf(err, errlen, "expected a field name at byte %zu",
                         (size_t)(key - (end - n)));
                return -1;
            }
            if (*p == ':')
                for (p++; p < end && (*p == ' ' || *p == '\t'); p++)
                    ;
            if (p < end && *p == '{') {
                size_t len = strlen(path);
                if (len + kl + 2 > sizeof(path)) {
                    snprintf(err, errlen, "nested too deep");
                    return -1;
                }
                snprintf(path + len, sizeof(path) - len, "%s%.*s", len ? "/" : "", (int)kl, key);
                p++;
                continue;
            }
            const char *v = p;
            size_t vl;
            if (p < end && *p == '"') {
                v = ++p;
                while (p < end && *p != '"' && *p != '\n')
                    p++;
                if (p >= end || *p != '"') {
                    snprintf(err, errlen, "unterminated string");
                    return -1;
                }
                vl = (size_t)(p++ - v);
            } else {
                while (p < end && !strchr(" \t\r\n;,}#", *p))
                    p++;
                vl = (size_t)(p - v);
                if (!vl) {
                    snprintf(err, errlen, "no value for %.*s", (int)kl, key);
                    return -1;
                }
            }
            if (set_field(c, key, kl, v, vl, path))
                return -1;
        }
    }
    if (*path) {
        snprintf(err, errlen, "unterminated block %s", path);
        return -1;
    }
    return 0;
}

/* Binary. */

static int ftrace_config(const struct pb_field *f, struct pf_config *c)
{
    struct pb_iter it;
    struct pb_field g;
    int r;
    pb_iter_init(&it, f->p, f->len);
    while ((r = pb_next(&it, &g)) > 0) {
        if (g.num == 1 && g.wire == PB_LEN)
            r = add(c->events, &c->nevents, (const char *)g.p, g.len);
        else if (g.num == 2 && g.wire == PB_LEN)
            r = add(c->cats, &c->ncats, (const char *)g.p, g.len);
        else if (g.num == 3 && g.wire == PB_LEN)
            r = add(c->apps, &c->napps, (const char *)g.p, g.len);
        else if (g.num == 12 && g.wire == PB_LEN) {
            struct pb_iter in;
            struct pb_field e;
            pb_iter_init(&in, g.p, g.len);
            while (pb_next(&in, &e) > 0)
                if (e.num == 1 && e.wire == PB_VARINT)
                    c->compact_sched = e.v != 0;
            r = in.bad ? -1 : 0;
        }
        if (r < 0)
            return -1;
    }
    return r;
}

/* process_stats_config 103 { proc_stats_poll_ms 4 }, android_power_config
 * 106 { battery_poll_ms 1, collect_power_rails 3 } */
static int sub_config(const struct pb_field *f, struct pf_config *c)
{
    struct pb_iter it;
    struct pb_field g;
    int r;
    pb_iter_init(&it, f->p, f->len);
    while ((r = pb_next(&it, &g)) > 0) {
        if (g.wire != PB_VARINT)
            continue;
        if (f->num == 103 && g.num == 4)
            c->proc_poll_ms = (uint32_t)g.v;
        else if (f->num == 106 && g.num == 1)
            c->battery_poll_ms = (uint32_t)g.v;
        else if (f->num == 106 && g.num == 3)
            c->power_rails = g.v != 0;
    }
    return r;
}

static int source_config(const struct pb_field *f, struct pf_config *c)
{
    struct pb_iter it;
    struct pb_field g;
    int r;
    pb_iter_init(&it, f->p, f->len);
    while ((r = pb_next(&it, &g)) > 0) {
        if (g.num == 1 && g.wire == PB_LEN && note_source(c, (const char *)g.p, g.len))
            return -1;
        else if (g.num == 100 && g.wire == PB_LEN && ftrace_config(&g, c))
            return -1;
        else if ((g.num == 103 || g.num == 106) && g.wire == PB_LEN && sub_config(&g, c))
            return -1;
    }
    return r;
}

/* f: a message whose field NUM is the message to hand to fn. */
static int inner(const struct pb_field *f, uint32_t num,
                 int (*fn)(const struct pb_field *, struct pf_config *), struct pf_config *c)
{
    struct pb_iter it;
    struct pb_field g;
    int r;
    pb_iter_init(&it, f->p, f->len);
    while ((r = pb_next(&it, &g)) > 0)
        if (g.num == num && g.wire == PB_LEN && fn(&g, c))
            return -1;
    return r;
}

static int buffer(const struct pb_field *f, struct pf_config *c)
{
    struct pb_iter it;
    struct pb_field g;
    int r;
    pb_iter_init(&it, f->p, f->len);
    while ((r = pb_next(&it, &g)) > 0)
        if (g.num == 1 && g.wire == PB_VARINT && !c->buffer_kb)
            c->buffer_kb = (uint32_t)g.v;
    return r;
}

int pf_config_binary(const uint8_t *p, size_t n, struct pf_config *c, char *err,
                     size_t errlen)
{
    struct pb_iter it;
    struct pb_field f;
    int r;
    memset(c, 0, sizeof(*c));
    pb_iter_init(&it, p, n);
    while ((r = pb_next(&it, &f)) > 0) {
        if (f.num == 1 && f.wire == PB_LEN)
            r = buffer(&f, c);
        else if (f.num == 2 && f.wire == PB_LEN)
            r = inner(&f, 1, source_config, c);
        else if (f.num == 3 && f.wire == PB_VARINT)
            c->duration_ms = (uint32_t)f.v;
        else if (f.num == 8 && f.wire == PB_VARINT)
            c->write_into_file = f.v != 0;
        else if (f.num == 9 && f.wire == PB_VARINT)
            c->file_write_period_ms = (uint32_t)f.v;
        if (r < 0)
            break;
    }
    if (r < 0)
        snprintf(err, errlen, "not a binary TraceConfig (byte %zu)", pb_offset(&it));
    return r < 0 ? -1 : 0;
}
