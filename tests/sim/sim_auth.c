/*
 * Authentication seam of the simulator (adb-protocol.md section d).
 * This stub accepts every host without an AUTH exchange, like a device
 * with ro.adb.secure=0.  A later version answers the host's CNXN with
 * AUTH(TOKEN, 20 random bytes) from sim_auth_begin(), checks
 * AUTH(SIGNATURE) against known public keys and accepts
 * AUTH(RSAPUBLICKEY) ("user taps Allow") in sim_auth_packet(); only this
 * file will need OpenSSL.  sim_conn_send() is available to send AUTH.
 */
#include "sim_wire.h"

#include <stdlib.h>

#include "packet.h"

struct sim_auth {
    struct sim_device *dev;
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

int sim_auth_begin(struct sim_auth *a, struct sim_conn *c)
{
    (void)a;
    (void)c;
    return 1;
}

int sim_auth_packet(struct sim_auth *a, struct sim_conn *c, uint32_t type,
                    const unsigned char *data, size_t len)
{
    (void)a;
    (void)c;
    (void)data;
    (void)len;
    /* Without a pending exchange AUTH packets are ignored (as adbd does
     * once the device is online). */
    (void)type;
    return 0;
}
