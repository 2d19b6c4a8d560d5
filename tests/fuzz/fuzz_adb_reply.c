/*
 * Fuzz the parsers of what an adb server sends: the smart-socket status /
 * data reply reader (through a memory conn handing out 1..16 bytes per
 * read), the devices-l parser plus device selection, and the server
 * address parser.  Byte 0 picks the parser, byte 1 the read size.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "adb/adb_int.h"

static void fuzz_reply(const uint8_t *p, size_t n, size_t chunk)
{
    struct adb_conn *c = adb_conn_mem_new(p, n, chunk);
    if (!c)
        return;
    struct dynbuf b;
    dynbuf_init(&b, 4096);
    if (adb_ss_status(c, -1) == ST_OK && adb_ss_body(c, -1, 4096, &b) == ST_OK &&
        b.len > 4096)
        abort();
    dynbuf_free(&b);
    adb_conn_close(c);
}

static void fuzz_devices(const uint8_t *p, size_t n)
{
    struct adb_device_list *l = NULL;
    if (adb_devices_parse((const char *)p, n, &l) != ST_OK)
        return;
    char err[ADB_ERRLEN];
    size_t idx = (size_t)-1;
    const char *serial = l->n ? l->v[0].serial : NULL;
    enum st_err e = adb_select(l, NULL, NULL, &idx, err, sizeof err);
    if (e == ST_OK && idx >= l->n)
        abort();
    e = adb_select(l, serial, "x", &idx, err, sizeof err);
    if (e == ST_OK && (idx >= l->n || l->v[idx].st != ADB_STATE_DEVICE))
        abort();
    for (size_t i = 0; i < l->n; i++)
        if (!l->v[i].serial[0] || !l->v[i].state[0] || !l->v[i].model)
            abort();
    adb_device_list_free(l);
}

static void fuzz_addr(const uint8_t *p, size_t n)
{
    char *s = malloc(n + 1);
    if (!s)
        return;
    memcpy(s, p, n);
    s[n] = '\0';
    struct adb_addr a;
    char err[ADB_ERRLEN];
    if (adb_addr_parse(s, &a, err, sizeof err) == ST_OK &&
        (a.port < 1 || a.port > 65535 || !a.host[0]))
        abort();
    free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    size_t chunk = 1 + data[1] % 16;
    switch (data[0] % 3) {
    case 0:
        fuzz_reply(data + 2, size - 2, chunk);
        break;
    case 1:
        fuzz_devices(data + 2, size - 2);
        break;
    default:
        fuzz_addr(data + 2, size - 2);
        break;
    }
    return 0;
}
