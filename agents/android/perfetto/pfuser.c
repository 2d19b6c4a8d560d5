/* A user's TraceConfig for --perfetto-config; see pfuser.h. */
#include "pfuser.h"

#include "formats/perfetto/pb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* TraceConfig's top-level fields (perfetto_config.proto at ec5d16b14b) */
static const struct {
    const char *name;
    uint32_t num;
} fields[] = {
    {"buffers", 1}, {"data_sources", 2}, {"builtin_data_sources", 20}, {"duration_ms", 3},
    {"prefer_suspend_clock_for_duration", 36}, {"enable_extra_guardrails", 4},
    {"lockdown_mode", 5}, {"producers", 6}, {"statsd_metadata", 7}, {"write_into_file", 8},
    {"output_path", 29}, {"file_write_period_ms", 9}, {"max_file_size_bytes", 10},
    {"guardrail_overrides", 11}, {"deferred_start", 12}, {"flush_period_ms", 13},
    {"flush_timeout_ms", 14}, {"data_source_stop_timeout_ms", 23}, {"notify_traceur", 16},
    {"bugreport_score", 30}, {"bugreport_filename", 38}, {"trigger_config", 17},
    {"activate_triggers", 18}, {"incremental_state_config", 21},
    {"allow_user_build_tracing", 19}, {"unique_session_name", 22}, {"compression_type", 24},
    {"compression", 47}, {"incident_report_config", 25}, {"statsd_logging", 31},
    {"trace_uuid_msb", 27}, {"trace_uuid_lsb", 28}, {"trace_filter", 33},
    {"android_report_config", 34}, {"cmd_trace_start_delay", 35}, {"session_semaphores", 39},
    {"priority_boost", 40}, {"exclusive_prio", 41}, {"write_flush_mode", 44},
    {"fflush_post_write", 45}, {"trace_all_machines", 43}, {"trace_attributes", 48},
};

/* systrace's: the stop and the file (duration_ms 3, write_into_file 8,
 * file_write_period_ms 9, output_path 29) */
static int is_stop_field(uint32_t num)
{
    return num == 3 || num == 8 || num == 9 || num == 29;
}

static uint32_t field_num(const char *name, size_t n)
{
    for (size_t i = 0; i < sizeof(fields) / sizeof(*fields); i++)
        if (strlen(fields[i].name) == n && !memcmp(fields[i].name, name, n))
            return fields[i].num;
    return 0;
}

static const char *field_name(uint32_t num)
{
    for (size_t i = 0; i < sizeof(fields) / sizeof(*fields); i++)
        if (fields[i].num == num)
            return fields[i].name;
    return "?";
}

static int looks_binary(const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)p[i];
        if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f)
            return 1;
    }
    return 0;
}

/* ---- text: a scanner over protobuf text format ---- */

struct scan {
    const char *p, *start, *end;
    char *why;
    size_t whylen;
    int depth;
};

static int bad(struct scan *s, const char *what)
{
    size_t line = 1;
    for (const char *q = s->start; q < s->p && q < s->end; q++)
        line += *q == '\n';
    snprintf(s->why, s->whylen, "line %zu: %s", line, what);
    return -1;
}

static void skip_space(struct scan *s)
{
    while (s->p < s->end) {
        if (strchr(" \t\r\n;,", *s->p))
            s->p++;
        else if (*s->p == '#')
            while (s->p < s->end && *s->p != '\n')
                s->p++;
        else
            break;
    }
}

static int word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '.' || c == '-' || c == '+';
}

static int scan_string(struct scan *s)
{
    char q = *s->p++;
    while (s->p < s->end && *s->p != q && *s->p != '\n')
        s->p += *s->p == '\\' && s->p + 1 < s->end ? 2 : 1;
    if (s->p >= s->end || *s->p != q)
        return bad(s, "unterminated string");
    s->p++;
    return 0;
}

static int scan_fields(struct scan *s, char close);

/* A value after a field name (and its optional ':'). */
static int scan_value(struct scan *s)
{
    skip_space(s);
    if (s->p >= s->end)
        return bad(s, "a field without a value");
    char c = *s->p;
    if (c == '{' || c == '<') {
        if (++s->depth > 64)
            return bad(s, "nested too deep");
        s->p++;
        int r = scan_fields(s, c == '{' ? '}' : '>');
        s->depth--;
        return r;
    }
    if (c == '"' || c == '\'') {
        while (s->p < s->end && (*s->p == '"' || *s->p == '\'')) {
            if (scan_string(s))
                return -1;
            while (s->p < s->end && (*s->p == ' ' || *s->p == '\t'))
                s->p++;
        }
        return 0;
    }
    if (c == '[') {     /* lists nest as messages do, within the same bound */
        if (++s->depth > 64)
            return bad(s, "nested too deep");
        for (s->p++, skip_space(s); s->p < s->end && *s->p != ']'; skip_space(s))
            if (scan_value(s))
                return -1;
        if (s->p >= s->end)
            return bad(s, "unterminated [ list");
        s->p++;
        s->depth--;
        return 0;
    }
    const char *v = s->p;
    while (s->p < s->end && word_char(*s->p))
        s->p++;
    return s->p == v ? bad(s, "expected a value") : 0;
}

/* One field: NAME [:] VALUE; its name in *name, *n. */
static int scan_field(struct scan *s, const char **name, size_t *n)
{
    *name = s->p;
    if (*s->p == '[') {     /* an extension: [a.b.c] */
        while (s->p < s->end && *s->p != ']' && *s->p != '\n')
            s->p++;
        if (s->p >= s->end || *s->p != ']')
            return bad(s, "unterminated [extension] name");
        s->p++;
    } else {
        while (s->p < s->end && (word_char(*s->p) && *s->p != '.' && *s->p != '-' &&
                                 *s->p != '+'))
            s->p++;
    }
    *n = (size_t)(s->p - *name);
    if (!*n)
        return bad(s, "expected a field name");
    while (s->p < s->end && (*s->p == ' ' || *s->p == '\t'))
        s->p++;
    if (s->p < s->end && *s->p == ':')
        s->p++;
    return scan_value(s);
}

static int scan_fields(struct scan *s, char close)
{
    for (skip_space(s); s->p < s->end && *s->p != close; skip_space(s)) {
        const char *name;
        size_t n;
        if (scan_field(s, &name, &n))
            return -1;
    }
    if (s->p >= s->end)
        return bad(s, "unterminated block (a '{' without its '}')");
    s->p++;
    return 0;
}

/* Each top-level field: fn(ctx, num, from, to); -1 on malformed text. */
static int text_top(const char *p, size_t len, char *why, size_t whylen,
                    int (*fn)(void *, uint32_t, const char *, const char *), void *ctx)
{
    struct scan s = {p, p, p + len, why, whylen, 0};
    for (skip_space(&s); s.p < s.end; skip_space(&s)) {
        const char *from = s.p, *name;
        size_t n;
        if (*s.p == '}' || *s.p == '>')
            return bad(&s, "unbalanced '}'");
        if (scan_field(&s, &name, &n))
            return -1;
        uint32_t num = field_num(name, n);
        if (!num) {
            char what[160];
            snprintf(what, sizeof(what), "'%.*s' is not a field of a TraceConfig", (int)(n < 60 ? n : 60),
                     name);
            s.p = from;
            return bad(&s, what);
        }
        if (fn(ctx, num, from, s.p))
            return -1;
    }
    return 0;
}

/* ---- what both forms report ---- */

struct seen {
    struct pfuser_info *info;
    int buffers, sources;
    struct dynbuf *out;     /* pfuser_make: what is kept */
    char *why;
    size_t whylen;
};

static void note(struct seen *w, uint32_t num, int64_t value)
{
    w->buffers += num == 1;
    w->sources += num == 2;
    if (num == 3)
        w->info->duration_ms = value;
    if (is_stop_field(num) && !strstr(w->info->replaced, field_name(num))) {
        size_t used = strlen(w->info->replaced);
        snprintf(w->info->replaced + used, sizeof(w->info->replaced) - used, "%s%s",
                 used ? ", " : "", field_name(num));
    }
}

/* duration_ms is a uint32 (Perfetto refuses any other value): decimal or
 * 0x hex, read within [p, end) only (the file is not NUL-ended). */
static const char *value_start(const char *p, const char *end)
{
    while (p < end && (strchr(" \t\r\n", *p) || *p == '#'))
        if (*p++ == '#')    /* a comment between the name and its value */
            while (p < end && *p != '\n')
                p++;
    return p;
}

static int text_u32(const char *p, const char *end, int64_t *v)
{
    p = value_start(p, end);
    int hex = end - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
    p += hex ? 2 : 0;
    uint64_t n = 0;
    const char *d = p;
    for (; p < end && n <= UINT32_MAX; p++) {
        int k = *p >= '0' && *p <= '9' ? *p - '0'
                : hex && (*p | 0x20) >= 'a' && (*p | 0x20) <= 'f' ? (*p | 0x20) - 'a' + 10 : -1;
        if (k < 0)
            break;
        n = n * (hex ? 16 : 10) + (uint64_t)k;
    }
    while (p < end && strchr(" \t\r\n;,", *p))
        p++;
    if (p == d || n > UINT32_MAX || (p < end && *p != '#'))
        return -1;
    *v = (int64_t)n;
    return 0;
}

/* The value quoted in one line: at most 40 bytes, a block's line ends
 * as spaces. */
static int bad_duration(struct seen *w, const char *v, size_t n)
{
    char q[41];
    n = n < 40 ? n : 40;
    for (size_t i = 0; i < n; i++)
        q[i] = (unsigned char)v[i] < 0x20 ? ' ' : v[i];
    q[n] = '\0';
    snprintf(w->why, w->whylen, "duration_ms %s: not a whole number of milliseconds "
             "(0 to 4294967295)", q);
    return -1;
}

static int text_field(void *ctx, uint32_t num, const char *from, const char *to)
{
    struct seen *w = ctx;
    int64_t v = -1;
    if (num == 3) {
        const char *c = memchr(from, ':', (size_t)(to - from));
        c = c ? c + 1 : from + 11;
        if (text_u32(c, to, &v)) {
            c = value_start(c, to);
            return bad_duration(w, c, (size_t)(to - c));
        }
    }
    note(w, num, v);
    if (w->out && !is_stop_field(num)) {
        dynbuf_add(w->out, from, (size_t)(to - from));
        dynbuf_addc(w->out, '\n');
    }
    return 0;
}

/* A data source with a name: DataSource { config 1 { name 1 } } */
static int source_named(const uint8_t *p, size_t n)
{
    struct pb_iter it, in;
    struct pb_field f, g;
    pb_iter_init(&it, p, n);
    while (pb_next(&it, &f) == 1)
        if (f.num == 1 && f.wire == PB_LEN) {
            pb_iter_init(&in, f.p, f.len);
            while (pb_next(&in, &g) == 1)
                if (g.num == 1 && g.wire == PB_LEN && g.len)
                    return !in.bad;
        }
    return 0;
}

static int binary_top(const char *data, size_t len, struct seen *w, char *why, size_t whylen)
{
    struct pb_iter it;
    struct pb_field f;
    const uint8_t *p = (const uint8_t *)data;
    pb_iter_init(&it, p, len);
    size_t at = 0;
    int r;
    while ((r = pb_next(&it, &f)) == 1) {
        int want_len = f.num == 1 || f.num == 2 || f.num == 29;
        if (!field_num(field_name(f.num), strlen(field_name(f.num))) ||
            (want_len != (f.wire == PB_LEN) && f.num <= 3)) {
            snprintf(why, whylen, "not a TraceConfig: field %u (wire type %d) at byte %zu",
                     f.num, (int)f.wire, at);
            return -1;
        }
        if (f.num == 2 && !source_named(f.p, f.len)) {
            snprintf(why, whylen, "a data source at byte %zu has no name", at);
            return -1;
        }
        if (f.num == 3 && f.v > UINT32_MAX) {
            char v[24];
            snprintf(v, sizeof(v), "%llu", (unsigned long long)f.v);
            return bad_duration(w, v, strlen(v));
        }
        note(w, f.num, f.wire == PB_VARINT ? (int64_t)f.v : -1);
        if (w->out && !is_stop_field(f.num))
            dynbuf_add(w->out, data + at, pb_offset(&it) - at);
        at = pb_offset(&it);
    }
    if (r < 0 || it.bad) {
        snprintf(why, whylen, "not a TraceConfig: malformed protobuf at byte %zu", at);
        return -1;
    }
    return 0;
}

/* The size of the echo argument that carries it (pfconfig_echo_binary;
 * text: backslashes doubled for mksh's echo, quotes as '\''). */
static size_t arg_size(const char *p, size_t n, int binary)
{
    if (binary)
        return 5 * n + 2;
    size_t size = n + 2;
    for (size_t i = 0; i < n; i++)
        size += p[i] == '\\' ? 1 : p[i] == '\'' ? 3 : 0;
    return size;
}

static int walk(const char *data, size_t len, struct seen *w, char *why, size_t whylen)
{
    w->why = why;
    w->whylen = whylen;
    return w->info->binary ? binary_top(data, len, w, why, whylen)
                           : text_top(data, len, why, whylen, text_field, w);
}

enum st_err pfuser_check(const char *data, size_t len, struct pfuser_info *info,
                         char *why, size_t whylen)
{
    memset(info, 0, sizeof(*info));
    info->duration_ms = -1;
    struct seen w = {info, 0, 0, NULL, why, whylen};
    if (!len) {
        snprintf(why, whylen, "empty: not a trace config");
        return ST_EINVAL;
    }
    if (len > PFUSER_FILE_MAX) {
        snprintf(why, whylen, "over %d MB: not a trace config", PFUSER_FILE_MAX >> 20);
        return ST_EINVAL;
    }
    info->binary = looks_binary(data, len);
    if (walk(data, len, &w, why, whylen))
        return ST_EINVAL;
    const char *form = info->binary ? "binary TraceConfig" : "text TraceConfig";
    if (!w.buffers || !w.sources) {
        snprintf(why, whylen, "a %s without %s: perfetto records nothing from it", form,
                 !w.buffers ? "buffers" : "data_sources");
        return ST_EINVAL;
    }
    size_t arg = arg_size(data, len, info->binary);
    if (arg > PFUSER_ARG_MAX) {
        snprintf(why, whylen, "a %s of %zu bytes takes %zu in the device command, over the "
                 "%d one adb command carries (text up to about %d KB, binary up to %d KB)",
                 form, len, arg, PFUSER_ARG_MAX, PFUSER_ARG_MAX / 1024,
                 PFUSER_ARG_MAX / 5 / 1024);
        return ST_EINVAL;
    }
    return ST_OK;
}

enum st_err pfuser_make(const char *data, size_t len, uint32_t duration_ms,
                        struct pfconfig *cfg)
{
    memset(cfg, 0, sizeof(*cfg));
    dynbuf_init(&cfg->text, PFUSER_FILE_MAX + 4096);
    dynbuf_init(&cfg->binary, PFUSER_FILE_MAX + 4096);
    struct pfuser_info info;
    char why[200];
    if (pfuser_check(data, len, &info, why, sizeof(why)))
        return ST_EINVAL;
    struct seen w = {&info, 0, 0, info.binary ? &cfg->binary : &cfg->text, why, sizeof(why)};
    if (walk(data, len, &w, why, sizeof(why)))
        return ST_EINVAL;
    pfconfig_add_stop(cfg, duration_ms);
    dynbuf_reset(info.binary ? &cfg->text : &cfg->binary);
    cfg->nkernel = 1;   /* the user's sources: not ours to count */
    return ST_OK;
}
