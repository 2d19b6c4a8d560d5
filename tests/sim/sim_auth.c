/*
 * Authentication of the simulator (adb-protocol.md section d), like adbd
 * with ro.adb.secure=1 when --auth-keys FILE is given (else every host is
 * accepted at once).  The host's CNXN is answered with AUTH(TOKEN, 20
 * random bytes); AUTH(SIGNATURE) is checked against every key in FILE
 * (adbkey.pub lines, re-read each time, as /data/misc/adb/adb_keys) with
 * a real RSA verification (adb_pubkey_verify, OpenSSL); a refused
 * signature gets a new token.  AUTH(RSAPUBLICKEY) is "the prompt": with
 * --auth-accept MS the user taps Allow after MS ms, the key is appended
 * to FILE and the device goes online; otherwise nothing happens.
 * Log lines: "auth token", "auth signature ok|refused", "auth pubkey",
 * "auth accepted".
 */
#include "sim_wire.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "adb/adb_wire.h"
#include "adb/packet.h"

struct sim_auth {
    struct sim_device *dev;
    int pending;
    uint8_t token[ADB_AUTH_TOKEN_LEN];
};

struct sim_auth *sim_auth_new(struct sim_device *dev)
{
    struct sim_auth *a = calloc(1, sizeof(*a));
    if (a)
        a->dev = dev;
    return a;
}

void sim_auth_free(struct sim_auth *a)
{
    free(a);
}

static int send_token(struct sim_auth *a, struct sim_conn *c)
{
    if (getrandom(a->token, sizeof a->token, 0) != (ssize_t)sizeof a->token)
        return -1;
    a->pending = 1;
    sim_log(a->dev, "auth", "token");
    return sim_conn_send(c, ADB_CMD_AUTH, ADB_AUTH_TOKEN, 0, a->token,
                         sizeof a->token);
}

int sim_auth_begin(struct sim_auth *a, struct sim_conn *c)
{
    if (!a || !a->dev->opt.auth_keys)
        return 1;
    send_token(a, c);
    return 0;
}

/* Whether any trusted key verifies sig over the current token. */
static int trusted(struct sim_auth *a, const unsigned char *sig, size_t len)
{
    FILE *f = fopen(a->dev->opt.auth_keys, "r");
    if (!f)
        return 0;
    char line[4096];
    int ok = 0;
    while (!ok && fgets(line, sizeof line, f)) {
        struct adb_pubkey *k;
        if (adb_pubkey_parse(line, strlen(line), &k))
            continue;
        ok = adb_pubkey_verify(k, a->token, sizeof a->token, sig, len);
        adb_pubkey_free(k);
    }
    fclose(f);
    return ok;
}

/* The user taps Allow: remember the key (one line, like adb_keys). */
static int accept_key(struct sim_auth *a, const unsigned char *data, size_t len)
{
    while (len && (data[len - 1] == '\0' || data[len - 1] == '\n'))
        len--;
    struct adb_pubkey *k;
    if (memchr(data, '\0', len) || adb_pubkey_parse((const char *)data, len, &k))
        return 0;
    adb_pubkey_free(k);
    if (a->dev->opt.auth_accept_ms > 0)
        sim_sleep((uint64_t)a->dev->opt.auth_accept_ms * 1000000u, NULL, NULL);
    int fd = open(a->dev->opt.auth_keys, O_WRONLY | O_APPEND | O_CREAT, 0644);
    if (fd >= 0) {
        if (write(fd, data, len) < 0 || write(fd, "\n", 1) < 0)
            sim_log(a->dev, "auth", "could not save the key");
        close(fd);
    }
    sim_log(a->dev, "auth", "accepted");
    return 1;
}

int sim_auth_packet(struct sim_auth *a, struct sim_conn *c, uint32_t type,
                    const unsigned char *data, size_t len)
{
    /* Without a pending exchange AUTH packets are ignored (as adbd does
     * once the device is online). */
    if (!a || !a->pending)
        return 0;
    if (type == ADB_AUTH_SIGNATURE) {
        if (trusted(a, data, len)) {
            sim_log(a->dev, "auth", "signature ok");
            a->pending = 0;
            return 1;
        }
        sim_log(a->dev, "auth", "signature refused");
        send_token(a, c);
        return 0;
    }
    if (type == ADB_AUTH_RSAPUBLICKEY) {
        sim_log(a->dev, "auth", "pubkey");
        if (a->dev->opt.auth_accept_ms >= 0 && accept_key(a, data, len)) {
            a->pending = 0;
            return 1;
        }
    }
    return 0;
}
