/*
 * The events Perfetto's to_ftrace formats by hand, kernel style, instead of
 * " field=value" pairs: sched_switch/sched_wakeup, print (tracing_mark_write
 * and its vendor twins), clock/clk, binder, mm_filemap, sched_blocked_reason,
 * workqueue, irq/softirq, cgroup_attach_task, hrtimer_expire_entry and i2c.
 * Each is a list of steps: fixed text, a field's value alone, or " key=value"
 * (when the field is absent, the step prints nothing but fixed text stays),
 * read from to_ftrace.cc at ec5d16b14b and checked against its trace
 * processor.  Field numbers are the event messages' (perfetto_trace.proto).
 */
#include "pfevent_int.h"

#include <stdio.h>
#include <string.h>

/* How a step prints its field. */
enum {
    S_TEXT,     /* fixed text */
    S_ARG,      /* " name=value" (text: a key other than the field's name) */
    S_VAL,      /* the value alone */
    S_U32,      /* the value cut to 32 bits, unsigned */
    S_HEX,      /* lowercase hex, no prefix */
    S_KFN,      /* kernel function: the symbol, else hex */
    S_KFNARG,   /* " name=" then as S_KFN */
    S_CHAR,     /* the value as one character */
    S_BE,       /* 'B' if non-zero, else 'E' */
    S_CPU3,     /* " name=" then zero-padded to 3 digits */
    S_IRQRET,   /* " ret=" then handled/unhandled */
    S_SOFTIRQ,  /* the softirq's action name */
    S_PRINT,    /* the string without one trailing newline */
    S_DEVMAJ,   /* dev_t major (>> 20) */
    S_DEVMIN,   /* dev_t minor (& 0xfffff) */
    S_PGOFS,    /* page index << 12 */
    S_HEX3,     /* " name=" zero-padded hex, 3 digits */
    S_HEX4,     /* " name=" zero-padded hex, 4 digits */
    S_HEXBUF,   /* " [" bytes as hex joined by '-' "]" */
    S_COMM,     /* as S_ARG, an empty string written PFEVENT_NO_COMM (to_ftrace:
                 * nothing), which the classic viewer's sched_wakeup needs */
};

struct step {
    uint8_t op, field;
    const char *text;
};

struct special {
    uint16_t id;
    const struct step *steps;
};

#define T(s) {S_TEXT, 0, s}
#define END {0, 0, NULL}

static const struct step sched_wakeup[] = {
    {S_COMM, 1, NULL}, {S_ARG, 2, NULL}, {S_ARG, 3, NULL}, {S_CPU3, 5, NULL}, END};
static const struct step clock_set_rate[] = {
    T(" "), {S_VAL, 1, NULL}, {S_ARG, 2, NULL}, {S_ARG, 3, NULL}, END};
static const struct step clock_onoff[] = {{S_VAL, 1, NULL}, {S_ARG, 2, NULL}, {S_ARG, 3, NULL}, END};
static const struct step clk_set_rate[] = {T(" "), {S_VAL, 1, NULL}, T(" "), {S_VAL, 2, NULL}, END};
static const struct step binder_transaction[] = {
    T(" transaction="), {S_U32, 1, NULL}, T(" dest_node="), {S_U32, 2, NULL},
    T(" dest_proc="), {S_VAL, 3, NULL}, T(" dest_thread="), {S_VAL, 4, NULL},
    T(" reply="), {S_VAL, 5, NULL}, T(" flags=0x"), {S_HEX, 7, NULL},
    T(" code=0x"), {S_HEX, 6, NULL}, END};
static const struct step binder_alloc_buf[] = {
    T(" transaction="), {S_U32, 2, NULL}, {S_ARG, 1, NULL}, {S_ARG, 3, NULL}, END};
static const struct step binder_received[] = {T(" transaction="), {S_U32, 1, NULL}, END};
static const struct step filemap_add[] = {
    T(" dev "), {S_DEVMAJ, 4, NULL}, T(":"), {S_DEVMIN, 4, NULL}, T(" ino "), {S_HEX, 2, NULL},
    T(" page=0000000000000000 pfn="), {S_VAL, 1, NULL}, T(" ofs="), {S_PGOFS, 3, NULL}, END};
static const struct step print[] = {T(" "), {S_PRINT, 2, NULL}, END};
static const struct step blocked_reason[] = {
    {S_ARG, 1, NULL}, {S_ARG, 3, "iowait"}, {S_KFNARG, 2, NULL}, END};
static const struct step wq_work[] = {T(" work struct "), {S_HEX, 1, NULL}, END};
static const struct step wq_start[] = {
    T(" work struct "), {S_HEX, 1, NULL}, T(": function "), {S_KFN, 2, NULL}, END};
static const struct step wq_queue[] = {
    T(" work struct="), {S_HEX, 1, NULL}, {S_KFNARG, 2, NULL}, {S_ARG, 6, NULL},
    {S_VAL, 4, NULL}, {S_VAL, 5, NULL}, END};
static const struct step irq_entry[] = {{S_ARG, 1, NULL}, {S_ARG, 2, NULL}, END};
static const struct step irq_exit[] = {{S_ARG, 1, NULL}, {S_IRQRET, 2, NULL}, END};
static const struct step softirq[] = {
    {S_ARG, 1, NULL}, T(" [action="), {S_SOFTIRQ, 1, NULL}, T("]"), END};
static const struct step mark_write[] = {
    {S_BE, 3, NULL}, T("|"), {S_VAL, 1, NULL}, T("|"), {S_VAL, 2, NULL}, END};
static const struct step vendor_mark[] = {  /* dpu, panel, g2d */
    {S_CHAR, 5, NULL}, T("|"), {S_VAL, 1, NULL}, T("|"), {S_VAL, 4, NULL}, T("|"),
    {S_VAL, 6, NULL}, END};
static const struct step samsung_mark[] = {
    {S_CHAR, 4, NULL}, T("|"), {S_VAL, 1, NULL}, T("|"), {S_VAL, 2, NULL}, T("|"),
    {S_VAL, 5, NULL}, END};
static const struct step cgroup_attach[] = {
    {S_ARG, 1, NULL}, {S_ARG, 2, NULL}, {S_ARG, 5, "cgroup"}, {S_ARG, 6, NULL},
    {S_ARG, 7, NULL}, {S_ARG, 3, NULL}, {S_ARG, 4, NULL}, END};
static const struct step hrtimer_entry[] = {{S_KFNARG, 3, NULL}, END};
#define I2C_HEAD T(" i2c-"), {S_VAL, 1, NULL}, T(" #"), {S_VAL, 2, NULL}, \
    {S_HEX3, 3, "a"}, {S_HEX4, 4, "f"}, {S_ARG, 5, "l"}
static const struct step i2c_rw[] = {I2C_HEAD, {S_HEXBUF, 7, NULL}, END};
static const struct step i2c_read[] = {I2C_HEAD, END};
static const struct step i2c_result[] = {
    T(" i2c-"), {S_VAL, 1, NULL}, {S_ARG, 2, "n"}, {S_ARG, 3, "ret"}, END};

static const struct special specials[] = {
    {3, print}, {14, clock_onoff}, {15, clock_onoff}, {16, clock_set_rate},
    {17, sched_wakeup}, {18, blocked_reason}, {24, softirq}, {25, softirq},
    {27, i2c_read}, {28, i2c_rw}, {29, i2c_result}, {30, i2c_rw},
    {36, irq_entry}, {37, irq_exit}, {50, binder_transaction}, {51, binder_received},
    {56, wq_work}, {57, wq_work}, {58, wq_start}, {59, wq_queue}, {67, cgroup_attach},
    {80, mark_write}, {97, filemap_add}, {322, clk_set_rate}, {323, binder_alloc_buf},
    {348, vendor_mark}, {349, vendor_mark}, {484, samsung_mark}, {490, vendor_mark},
    {553, hrtimer_entry},
};

int pfevent_is_mark_alias(uint32_t id)
{
    return id == 348 || id == 349;      /* dpu_, g2d_tracing_mark_write */
}

static const char *const softirq_names[] = {
    "HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU",
};

static uint64_t as_u64(const struct pfv *v)
{
    return v->kind == PFV_INT ? (uint64_t)v->i : v->u;
}

static void put_kfn(struct pfw *w, const struct pfv *v)
{
    if (v->kind == PFV_STR)
        pfw_value(w, v);
    else
        pfw_hex(w, as_u64(v));
}

static void put_padhex(struct pfw *w, uint64_t x, int width)
{
    char tmp[24];
    int n = snprintf(tmp, sizeof tmp, "%0*llx", width, (unsigned long long)x);
    pfw_put(w, tmp, (size_t)n);
}

/* Perfetto's zero padding to 3 digits, after the sign ("-042"). */
static void put_pad3(struct pfw *w, int64_t x)
{
    char tmp[24];
    size_t i = sizeof tmp;
    uint64_t mag = x < 0 ? 0 - (uint64_t)x : (uint64_t)x;
    do {    /* by hand: snprintf here was 1% of a conversion */
        tmp[--i] = (char)('0' + mag % 10);
        mag /= 10;
    } while (mag || sizeof tmp - i < 3);
    if (x < 0)
        tmp[--i] = '-';
    pfw_put(w, tmp + i, sizeof tmp - i);
}

static void put_hexbuf(struct pfw *w, const struct pfv *v)
{
    static const char hex[] = "0123456789abcdef";
    pfw_put(w, " [", 2);
    for (size_t i = 0; v->kind == PFV_STR && i < v->n; i++) {
        unsigned char b = (unsigned char)v->s[i];
        char two[3] = {hex[b >> 4], hex[b & 15], '-'};
        pfw_put(w, two, i + 1 < v->n ? 3 : 2);
    }
    pfw_put(w, "]", 1);
}

static void key(struct pfw *w, const struct pfev *e, const struct step *s)
{
    const char *k = s->text;
    if (!k)
        k = pfevent_str(pfevent_field(e->d, s->field)->name);
    pfw_put(w, " ", 1);
    pfw_str(w, k);
    pfw_put(w, "=", 1);
}

static void run_step(struct pfw *w, const struct pfev *e, const struct step *s)
{
    struct pfv v;
    if (s->op == S_TEXT) {
        pfw_str(w, s->text);
        return;
    }
    if (!pfev_arg(e, s->field, &v))
        return;
    switch (s->op) {
    case S_ARG:
        pfw_arg(w, s->text ? s->text : pfevent_str(pfevent_field(e->d, s->field)->name), &v);
        break;
    case S_COMM:
        if (v.kind == PFV_STR && !v.n) {
            v.s = PFEVENT_NO_COMM;
            v.n = sizeof(PFEVENT_NO_COMM) - 1;
        }
        pfw_arg(w, pfevent_str(pfevent_field(e->d, s->field)->name), &v);
        break;
    case S_VAL: pfw_value(w, &v); break;
    case S_U32: pfw_uint(w, (uint32_t)as_u64(&v)); break;
    case S_HEX: pfw_hex(w, as_u64(&v)); break;
    case S_KFN: put_kfn(w, &v); break;
    case S_KFNARG: key(w, e, s); put_kfn(w, &v); break;
    case S_CHAR: {
        char ch = (char)as_u64(&v);
        if (ch == '\0')
            w->cut = 1;         /* Perfetto's line, a C string, ends there */
        pfw_put(w, &ch, 1);
        break;
    }
    case S_BE: pfw_put(w, as_u64(&v) ? "B" : "E", 1); break;
    case S_CPU3: key(w, e, s); put_pad3(w, v.kind == PFV_INT ? v.i : (int64_t)v.u); break;
    case S_IRQRET: pfw_str(w, as_u64(&v) ? " ret=handled" : " ret=unhandled"); break;
    case S_SOFTIRQ:
        if (as_u64(&v) < sizeof softirq_names / sizeof softirq_names[0])
            pfw_str(w, softirq_names[as_u64(&v)]);
        else
            pfw_uint(w, as_u64(&v));
        break;
    case S_PRINT:
        if (v.kind == PFV_STR && v.n && v.s[v.n - 1] == '\n')
            v.n--;
        pfw_value(w, &v);
        break;
    case S_DEVMAJ: pfw_uint(w, as_u64(&v) >> 20); break;
    case S_DEVMIN: pfw_uint(w, as_u64(&v) & 0xfffff); break;
    case S_PGOFS: pfw_uint(w, as_u64(&v) << 12); break;
    case S_HEX3: key(w, e, s); put_padhex(w, as_u64(&v), 3); break;
    case S_HEX4: key(w, e, s); put_padhex(w, as_u64(&v), 4); break;
    case S_HEXBUF: put_hexbuf(w, &v); break;
    }
}

int pfevent_special(struct pfw *w, const struct pfev *e)
{
    for (size_t i = 0; i < sizeof specials / sizeof specials[0]; i++) {
        if (specials[i].id != e->id)
            continue;
        for (const struct step *s = specials[i].steps; s->op || s->text; s++) {
            if (w->cut)
                break;
            run_step(w, e, s);
        }
        return 1;
    }
    return 0;
}
