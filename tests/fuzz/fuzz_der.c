/*
 * libFuzzer target: lib/der.c, the PEM/DER reader the Windows build uses
 * for ~/.android/adbkey (run here on Linux).  The input is tried as PEM
 * text and as DER in both forms.  Every key it accepts must write back as
 * PKCS#8 PEM that reads to the same parts, and OpenSSL (lib/rsakey.h on
 * Linux) must read that PEM to the same modulus and exponent, so the
 * Windows build never takes a key file for something OpenSSL does not.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/der.h"
#include "lib/rsakey.h"

#define MAX_BITS 4096

static unsigned bits_of(const uint8_t *v, size_t n)
{
    unsigned b = 8 * (unsigned)n;
    for (uint8_t top = n ? v[0] : 0x80; !(top & 0x80); top <<= 1)
        b--;
    return b;
}

/* What OpenSSL reads from our PEM: the same n and e. */
static void same_as_openssl(const struct der_rsa *k, const struct dynbuf *pem)
{
    unsigned bits = bits_of(k->v[DER_N], k->len[DER_N]);
    struct rsakey *rk = NULL;
    enum st_err e = rsakey_parse_pem(pem->data, pem->len, MAX_BITS, &rk);
    if (bits < 1024 || bits > MAX_BITS || e == ST_ENOMEM)
        goto out;
    if (e || rsakey_bits(rk) != bits)
        abort();
    uint8_t n[MAX_BITS / 8];
    uint32_t exp = 0;
    if (k->len[DER_E] > 4) {
        if (!rsakey_public(rk, n, sizeof n, &exp))
            abort();
        goto out;
    }
    if (rsakey_public(rk, n, k->len[DER_N], &exp))
        abort();
    uint32_t want = 0;
    for (size_t i = 0; i < k->len[DER_E]; i++)
        want = want << 8 | k->v[DER_E][i];
    if (exp != want)
        abort();
    for (size_t i = 0; i < k->len[DER_N]; i++)
        if (n[i] != k->v[DER_N][k->len[DER_N] - 1 - i])
            abort();
out:
    rsakey_free(rk);
}

static void check(const struct der_rsa *k)
{
    struct dynbuf pem, der;
    struct der_rsa back;
    dynbuf_init(&pem, 1u << 20);
    dynbuf_init(&der, 1u << 20);
    if (der_rsa_to_pem(k, &pem))
        goto out;
    if (der_rsa_from_pem(pem.data, pem.len, &der, &back))
        abort();
    for (int i = 0; i < DER_PARTS; i++)
        if (back.len[i] != k->len[i] || memcmp(back.v[i], k->v[i], k->len[i]))
            abort();
    same_as_openssl(k, &pem);
out:
    dynbuf_free(&pem);
    dynbuf_free(&der);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct der_rsa k;
    struct dynbuf der;
    dynbuf_init(&der, size + 16);
    if (!der_rsa_from_pem((const char *)data, size, &der, &k))
        check(&k);
    dynbuf_free(&der);
    for (int pkcs1 = 0; pkcs1 < 2; pkcs1++)
        if (!der_rsa_parse(data, size, pkcs1, &k))
            check(&k);
    return 0;
}
