/*
 * libFuzzer target: the key-file parsers: a PEM private key (adbkey,
 * vendor keys) and an adbkey.pub / adb_keys line.  Valid keys are used
 * (public-key encoding, a signature check) to reach the code after parsing.
 */
#include <stdint.h>
#include <string.h>

#include "adb/adb_wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct adb_key *k;
    if (!adb_key_parse(data, size, &k)) {
        struct dynbuf b;
        dynbuf_init(&b, 4096);
        adb_key_pub_b64(k, &b);
        dynbuf_free(&b);
        adb_key_free(k);
    }
    struct adb_pubkey *pk;
    if (!adb_pubkey_parse((const char *)data, size, &pk)) {
        uint8_t tok[20] = {0}, sig[256] = {0};
        adb_pubkey_verify(pk, tok, sizeof tok, sig, sizeof sig);
        adb_pubkey_free(pk);
    }
    return 0;
}
