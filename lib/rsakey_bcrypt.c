/*
 * lib/rsakey.h on Windows' CNG (BCrypt): RSA for direct TCP's
 * authentication and SHA-256 for the viewer checks.  CNG reads and writes
 * only its own key blobs, so PEM and DER are lib/der.c's work: a key file
 * becomes a BCRYPT_RSAFULLPRIVATE_BLOB, and a generated key's exported
 * blob becomes PKCS#8 PEM as OpenSSL writes it.  Signatures are CNG's
 * PKCS#1 v1.5 with the SHA-1 algorithm id (the DigestInfo adb's
 * RSA_sign(NID_sha1) puts around the token): deterministic, so
 * byte-identical to the OpenSSL build's.  Key bytes pass through
 * temporary buffers that are cleared before they are freed.
 */
#include "rsakey.h"

#include <stdlib.h>
#include <string.h>

#include <windows.h>
#include <bcrypt.h>

#include "der.h"

#define MAX_BYTES 1024      /* 8192-bit moduli; callers ask for less */

struct rsakey {
    BCRYPT_ALG_HANDLE alg;
    BCRYPT_KEY_HANDLE h;
    uint8_t n[MAX_BYTES];   /* big-endian, no leading zeros */
    size_t nlen;
    uint8_t e[8];
    size_t elen;
};

static unsigned bits_of(const uint8_t *v, size_t n)
{
    if (!n)
        return 0;
    unsigned b = 8 * (unsigned)n;
    for (uint8_t top = v[0]; !(top & 0x80); top <<= 1)
        b--;
    return b;
}

/* n and e into k (big-endian, leading zeros dropped). */
static enum st_err set_public(struct rsakey *k, const uint8_t *n, size_t nlen,
                              const uint8_t *e, size_t elen)
{
    while (nlen && !*n)
        n++, nlen--;
    while (elen && !*e)
        e++, elen--;
    if (!nlen || nlen > MAX_BYTES || !elen || elen > sizeof k->e)
        return ST_EFORMAT;
    memcpy(k->n, n, nlen);
    k->nlen = nlen;
    memcpy(k->e, e, elen);
    k->elen = elen;
    return ST_OK;
}

/* An empty key with its algorithm provider open (CNG keys live in one). */
static enum st_err new_key(struct rsakey **out)
{
    struct rsakey *k = calloc(1, sizeof *k);
    if (!k)
        return ST_ENOMEM;
    if (!BCRYPT_SUCCESS(BCryptOpenAlgorithmProvider(&k->alg, BCRYPT_RSA_ALGORITHM, NULL, 0))) {
        free(k);
        return ST_EIO;
    }
    *out = k;
    return ST_OK;
}

/* Appends v, left-padded with zeros to `width` bytes; -1 if it is wider. */
static int put_be(uint8_t **p, const uint8_t *v, size_t n, size_t width)
{
    while (n && !*v)
        v++, n--;
    if (n > width)
        return -1;
    memset(*p, 0, width - n);
    memcpy(*p + width - n, v, n);
    *p += width;
    return 0;
}

/* The blob CNG imports a private key from: header, e, n, p, q, dp, dq,
 * qinv (each as wide as its prime), d (as wide as n). */
static enum st_err import_private(struct rsakey *k, const struct der_rsa *d)
{
    size_t lp = d->len[DER_P], lq = d->len[DER_Q];
    size_t size = sizeof(BCRYPT_RSAKEY_BLOB) + k->elen + 2 * k->nlen + 3 * lp + 2 * lq;
    uint8_t *blob = calloc(1, size), *p = blob + sizeof(BCRYPT_RSAKEY_BLOB);
    if (!blob)
        return ST_ENOMEM;
    BCRYPT_RSAKEY_BLOB hdr = {BCRYPT_RSAFULLPRIVATE_MAGIC, bits_of(k->n, k->nlen),
                              (ULONG)k->elen, (ULONG)k->nlen, (ULONG)lp, (ULONG)lq};
    memcpy(blob, &hdr, sizeof hdr);
    const size_t width[] = {k->elen, k->nlen, lp, lq, lp, lq, lp, k->nlen};
    const enum der_part order[] = {DER_E, DER_N, DER_P, DER_Q, DER_DP, DER_DQ, DER_QINV, DER_D};
    enum st_err e = ST_OK;
    for (size_t i = 0; !e && i < sizeof order / sizeof order[0]; i++)
        if (put_be(&p, d->v[order[i]], d->len[order[i]], width[i]))
            e = ST_EFORMAT;
    if (!e && !BCRYPT_SUCCESS(BCryptImportKeyPair(k->alg, NULL, BCRYPT_RSAFULLPRIVATE_BLOB,
                                                  &k->h, blob, (ULONG)size, 0)))
        e = ST_EFORMAT;
    SecureZeroMemory(blob, size);
    free(blob);
    return e;
}

enum st_err rsakey_parse_pem(const void *pem, size_t len, unsigned max_bits,
                             struct rsakey **out)
{
    *out = NULL;
    struct dynbuf der;
    struct der_rsa d;
    dynbuf_init(&der, len + 16);
    enum st_err e = der_rsa_from_pem(pem, len, &der, &d);
    if (e == ST_ENOENT)
        e = ST_EFORMAT;
    struct rsakey *k = NULL;
    if (!e)
        e = new_key(&k);
    if (!e)
        e = set_public(k, d.v[DER_N], d.len[DER_N], d.v[DER_E], d.len[DER_E]);
    if (!e && (rsakey_bits(k) < 1024 || rsakey_bits(k) > max_bits))
        e = ST_EFORMAT;
    if (!e)
        e = import_private(k, &d);
    crypto_cleanse(der.data, der.len);
    dynbuf_free(&der);
    if (e) {
        rsakey_free(k);
        return e;
    }
    *out = k;
    return ST_OK;
}

enum st_err rsakey_from_public(const uint8_t *n_le, size_t nbytes, uint32_t exp,
                               struct rsakey **out)
{
    *out = NULL;
    if (!nbytes || nbytes > MAX_BYTES || !(n_le[0] & 1))
        return ST_EFORMAT;
    uint8_t n[MAX_BYTES], e[4] = {exp >> 24, exp >> 16 & 0xff, exp >> 8 & 0xff, exp & 0xff};
    for (size_t i = 0; i < nbytes; i++)
        n[i] = n_le[nbytes - 1 - i];
    struct rsakey *k;
    enum st_err r = new_key(&k);
    if (r)
        return r;
    if (set_public(k, n, nbytes, e, sizeof e)) {
        rsakey_free(k);
        return ST_EFORMAT;
    }
    size_t size = sizeof(BCRYPT_RSAKEY_BLOB) + k->elen + k->nlen;
    uint8_t blob[sizeof(BCRYPT_RSAKEY_BLOB) + sizeof k->e + MAX_BYTES];
    BCRYPT_RSAKEY_BLOB hdr = {BCRYPT_RSAPUBLIC_MAGIC, rsakey_bits(k), (ULONG)k->elen,
                              (ULONG)k->nlen, 0, 0};
    memcpy(blob, &hdr, sizeof hdr);
    memcpy(blob + sizeof hdr, k->e, k->elen);
    memcpy(blob + sizeof hdr + k->elen, k->n, k->nlen);
    if (!BCRYPT_SUCCESS(BCryptImportKeyPair(k->alg, NULL, BCRYPT_RSAPUBLIC_BLOB, &k->h, blob,
                                            (ULONG)size, 0))) {
        rsakey_free(k);
        return ST_EFORMAT;
    }
    *out = k;
    return ST_OK;
}

/* A generated key's parts, from the blob CNG exports (the order above). */
static enum st_err parts_of_blob(const uint8_t *blob, size_t size, struct der_rsa *d)
{
    BCRYPT_RSAKEY_BLOB hdr;
    if (size < sizeof hdr)
        return ST_EIO;
    memcpy(&hdr, blob, sizeof hdr);
    const size_t width[] = {hdr.cbPublicExp, hdr.cbModulus, hdr.cbPrime1, hdr.cbPrime2,
                            hdr.cbPrime1, hdr.cbPrime2, hdr.cbPrime1, hdr.cbModulus};
    const enum der_part order[] = {DER_E, DER_N, DER_P, DER_Q, DER_DP, DER_DQ, DER_QINV, DER_D};
    size_t at = sizeof hdr;
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        if (width[i] > size - at)
            return ST_EIO;
        d->v[order[i]] = blob + at;
        d->len[order[i]] = width[i];
        at += width[i];
    }
    return ST_OK;
}

/* The key's full private blob, exported: *blob to be cleared and freed. */
static enum st_err export_private(const struct rsakey *k, uint8_t **blob, ULONG *size)
{
    *blob = NULL;
    if (!BCRYPT_SUCCESS(BCryptExportKey(k->h, NULL, BCRYPT_RSAFULLPRIVATE_BLOB, NULL, 0, size,
                                        0)))
        return ST_EIO;
    if (!(*blob = calloc(1, *size)))
        return ST_ENOMEM;
    if (!BCRYPT_SUCCESS(BCryptExportKey(k->h, NULL, BCRYPT_RSAFULLPRIVATE_BLOB, *blob, *size,
                                        size, 0)))
        return ST_EIO;
    return ST_OK;
}

enum st_err rsakey_generate(unsigned bits, struct dynbuf *pem, struct rsakey **out)
{
    *out = NULL;
    struct rsakey *k;
    enum st_err e = new_key(&k);
    if (e)
        return e;
    uint8_t *blob = NULL;
    ULONG size = 0;
    struct der_rsa d;
    e = ST_EIO;
    if (BCRYPT_SUCCESS(BCryptGenerateKeyPair(k->alg, &k->h, bits, 0)) &&
        BCRYPT_SUCCESS(BCryptFinalizeKeyPair(k->h, 0)))
        e = export_private(k, &blob, &size);
    if (!e)
        e = parts_of_blob(blob, size, &d);
    if (!e)
        e = set_public(k, d.v[DER_N], d.len[DER_N], d.v[DER_E], d.len[DER_E]);
    if (!e)
        e = der_rsa_to_pem(&d, pem);
    if (blob)
        SecureZeroMemory(blob, size);
    free(blob);
    if (e) {
        rsakey_free(k);
        return e;
    }
    *out = k;
    return ST_OK;
}

void rsakey_free(struct rsakey *k)
{
    if (!k)
        return;
    if (k->h)
        BCryptDestroyKey(k->h);
    if (k->alg)
        BCryptCloseAlgorithmProvider(k->alg, 0);
    free(k);
}

unsigned rsakey_bits(const struct rsakey *k)
{
    return bits_of(k->n, k->nlen);
}

enum st_err rsakey_public(const struct rsakey *k, uint8_t *n_le, size_t nbytes, uint32_t *exp)
{
    if (k->nlen > nbytes || k->elen > 4)
        return ST_EFORMAT;
    memset(n_le, 0, nbytes);
    for (size_t i = 0; i < k->nlen; i++)
        n_le[i] = k->n[k->nlen - 1 - i];
    uint32_t v = 0;
    for (size_t i = 0; i < k->elen; i++)
        v = v << 8 | k->e[i];
    *exp = v;
    return ST_OK;
}

enum st_err rsakey_sign_sha1(const struct rsakey *k, const uint8_t *digest, size_t dlen,
                             uint8_t *sig, size_t cap, size_t *siglen)
{
    *siglen = 0;
    BCRYPT_PKCS1_PADDING_INFO pad = {BCRYPT_SHA1_ALGORITHM};
    ULONG n = 0;
    if (cap < k->nlen || !BCRYPT_SUCCESS(BCryptSignHash(k->h, &pad, (PUCHAR)digest, (ULONG)dlen,
                                                        sig, (ULONG)cap, &n, BCRYPT_PAD_PKCS1)))
        return ST_EIO;
    *siglen = n;
    return ST_OK;
}

int rsakey_verify_sha1(const struct rsakey *k, const uint8_t *digest, size_t dlen,
                       const uint8_t *sig, size_t siglen)
{
    BCRYPT_PKCS1_PADDING_INFO pad = {BCRYPT_SHA1_ALGORITHM};
    return BCRYPT_SUCCESS(BCryptVerifySignature(k->h, &pad, (PUCHAR)digest, (ULONG)dlen,
                                                (PUCHAR)sig, (ULONG)siglen, BCRYPT_PAD_PKCS1));
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
