/*
 * lib/rsakey.h on Windows' CNG (BCrypt): SHA-256 for the viewer checks.
 * RSA for direct TCP's authentication is not done yet: every key
 * operation fails with ST_EUNSUPPORTED.
 */
#include "rsakey.h"

#include <windows.h>
#include <bcrypt.h>

enum st_err rsakey_parse_pem(const void *pem, size_t len, unsigned max_bits,
                             struct rsakey **out)
{
    (void)pem;
    (void)len;
    (void)max_bits;
    *out = NULL;
    return ST_EUNSUPPORTED;
}

enum st_err rsakey_from_public(const uint8_t *n_le, size_t nbytes, uint32_t e,
                               struct rsakey **out)
{
    (void)n_le;
    (void)nbytes;
    (void)e;
    *out = NULL;
    return ST_EUNSUPPORTED;
}

enum st_err rsakey_generate(unsigned bits, struct dynbuf *pem, struct rsakey **out)
{
    (void)bits;
    (void)pem;
    *out = NULL;
    return ST_EUNSUPPORTED;
}

void rsakey_free(struct rsakey *k)
{
    (void)k;
}

unsigned rsakey_bits(const struct rsakey *k)
{
    (void)k;
    return 0;
}

enum st_err rsakey_public(const struct rsakey *k, uint8_t *n_le, size_t nbytes, uint32_t *e)
{
    (void)k;
    (void)n_le;
    (void)nbytes;
    (void)e;
    return ST_EUNSUPPORTED;
}

enum st_err rsakey_sign_sha1(const struct rsakey *k, const uint8_t *digest, size_t dlen,
                             uint8_t *sig, size_t cap, size_t *siglen)
{
    (void)k;
    (void)digest;
    (void)dlen;
    (void)sig;
    (void)cap;
    *siglen = 0;
    return ST_EUNSUPPORTED;
}

int rsakey_verify_sha1(const struct rsakey *k, const uint8_t *digest, size_t dlen,
                       const uint8_t *sig, size_t siglen)
{
    (void)k;
    (void)digest;
    (void)dlen;
    (void)sig;
    (void)siglen;
    return 0;
}

int crypto_sha256(const void *p, size_t n, uint8_t md[32])
{
    BCRYPT_ALG_HANDLE alg = NULL;
    BCRYPT_HASH_HANDLE h = NULL;
    int ok = BCryptOpenAlgorithmProvider(&alg, BCRYPT_SHA256_ALGORITHM, NULL, 0) == 0 &&
             BCryptCreateHash(alg, &h, NULL, 0, NULL, 0, 0) == 0;
    const UCHAR *b = p;
    while (ok && n) {
        ULONG k = n > 0x40000000u ? 0x40000000u : (ULONG)n;
        ok = BCryptHashData(h, (PUCHAR)b, k, 0) == 0;
        b += k;
        n -= k;
    }
    ok = ok && BCryptFinishHash(h, md, 32, 0) == 0;
    if (h)
        BCryptDestroyHash(h);
    if (alg)
        BCryptCloseAlgorithmProvider(alg, 0);
    return ok ? 0 : -1;
}

void crypto_cleanse(void *p, size_t n)
{
    if (p)
        SecureZeroMemory(p, n);
}
