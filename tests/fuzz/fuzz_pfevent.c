/* libFuzzer target: the body text of one Perfetto ftrace event
 * (formats/perfetto/pfevent.h), as a trace's bytes reach it.  The first two
 * bytes pick the event id (every id, known or not, generic included), the
 * third the kernel version; the rest is the event's message.  A body never
 * grows past the output's stated maximum, and the structured sched forms
 * take comms cut from the input. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "formats/perfetto/pfevent.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *sym(void *arg, uint64_t iid, size_t *len)
{
    (void)arg;
    if (iid % 3)
        return NULL;
    *len = 5;
    return "kfunc";
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3)
        return 0;
    uint32_t id = (uint32_t)data[0] << 8 | data[1];
    struct pfevent_ctx c = {.kernel_major = data[2] >> 4, .kernel_minor = data[2] & 15,
                            .sched_major = data[2] >> 4, .sched_minor = data[2] & 15,
                            .ksym = sym};
    const uint8_t *msg = data + 3;
    size_t len = size - 3;
    struct dynbuf out;
    dynbuf_init(&out, 1u << 16);
    (void)pfevent_name(id);
    (void)pfevent_format(&c, id, msg, len, &out);
    if (out.len > out.max)
        __builtin_trap();
    const char *name;
    size_t nlen;
    if (pfevent_generic_name(msg, len, &name, &nlen) == ST_OK && nlen &&
        (name < (const char *)msg || name + nlen > (const char *)msg + len))
        __builtin_trap();

    char comm[32];
    size_t n = len < sizeof(comm) - 1 ? len : sizeof(comm) - 1;
    memcpy(comm, msg, n);
    comm[n] = 0;
    int64_t state = 0;
    memcpy(&state, data, size < sizeof(state) ? size : sizeof(state));
    struct pf_switch s = {comm, id, (int32_t)id - 200, state, comm, id * 7u, 120};
    dynbuf_reset(&out);
    (void)pfevent_sched_switch(&c, &s, &out);
    struct pf_waking w = {comm, id, (uint16_t)id, data[2]};
    (void)pfevent_sched_waking(&c, &w, &out);
    char st[4];
    pfevent_task_state(&c, state, st);
    if (!memchr(st, 0, sizeof(st)))
        __builtin_trap();
    dynbuf_free(&out);
    return 0;
}
