/* RSA private keys in PEM and DER; see der.h. */
#include "der.h"

#include <string.h>

#include "base64.h"
#include "rsakey.h"

#define TAG_INT 0x02
#define TAG_OCTETS 0x04
#define TAG_SEQ 0x30
#define TAG_ATTRS 0xa0      /* PKCS#8's [0] IMPLICIT SET OF Attribute */

/* AlgorithmIdentifier { rsaEncryption (1.2.840.113549.1.1.1), NULL } */
static const uint8_t rsa_algid[] = {0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86,
                                    0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00};

struct cur {
    const uint8_t *p;
    size_t n;
};

/* The next element, which must have tag `tag`: its contents in *in, c
 * past it.  Lengths definite and minimal, at most 4 bytes. */
static int take(struct cur *c, uint8_t tag, struct cur *in)
{
    if (c->n < 2 || c->p[0] != tag)
        return -1;
    size_t len = c->p[1], hdr = 2;
    if (len & 0x80) {
        size_t k = len & 0x7f;
        if (k == 0 || k > 4 || c->n < 2 + k || c->p[2] == 0)
            return -1;
        len = 0;
        for (size_t i = 0; i < k; i++)
            len = len << 8 | c->p[2 + i];
        if (len < 0x80)
            return -1;
        hdr += k;
    }
    if (len > c->n - hdr)
        return -1;
    in->p = c->p + hdr;
    in->n = len;
    c->p += hdr + len;
    c->n -= hdr + len;
    return 0;
}

/* A non-negative INTEGER in minimal form, without its sign byte. */
static int take_uint(struct cur *c, const uint8_t **v, size_t *len)
{
    struct cur in;
    if (take(c, TAG_INT, &in) || !in.n || in.p[0] & 0x80 ||
        (in.n > 1 && !in.p[0] && !(in.p[1] & 0x80)))
        return -1;
    if (!in.p[0]) {
        in.p++;
        in.n--;
    }
    *v = in.p;
    *len = in.n;
    return 0;
}

static int take_zero(struct cur *c)
{
    const uint8_t *v;
    size_t len;
    return take_uint(c, &v, &len) || len ? -1 : 0;
}

/* RSAPrivateKey: version 0 (two primes), then the eight integers. */
static int parse_pkcs1(struct cur c, struct der_rsa *k)
{
    struct cur seq;
    if (take(&c, TAG_SEQ, &seq) || c.n || take_zero(&seq))
        return -1;
    for (int i = 0; i < DER_PARTS; i++)
        if (take_uint(&seq, &k->v[i], &k->len[i]))
            return -1;
    return seq.n || !k->len[DER_N] || !k->len[DER_E] || !k->len[DER_D] || !k->len[DER_P] ||
           !k->len[DER_Q] ? -1 : 0;
}

/* PrivateKeyInfo: version 0, rsaEncryption, the RSAPrivateKey in an
 * OCTET STRING, optional attributes (ignored). */
static int parse_pkcs8(struct cur c, struct der_rsa *k)
{
    struct cur seq, alg, key, attrs;
    if (take(&c, TAG_SEQ, &seq) || c.n || take_zero(&seq))
        return -1;
    const uint8_t *algp = seq.p;
    if (take(&seq, TAG_SEQ, &alg) || (size_t)(seq.p - algp) != sizeof rsa_algid ||
        memcmp(algp, rsa_algid, sizeof rsa_algid) || take(&seq, TAG_OCTETS, &key))
        return -1;
    if (seq.n && take(&seq, TAG_ATTRS, &attrs))
        return -1;
    return seq.n ? -1 : parse_pkcs1(key, k);
}

enum st_err der_rsa_parse(const uint8_t *der, size_t n, int pkcs1, struct der_rsa *out)
{
    memset(out, 0, sizeof *out);
    struct cur c = {der, n};
    if (pkcs1 ? parse_pkcs1(c, out) : parse_pkcs8(c, out)) {
        memset(out, 0, sizeof *out);
        return ST_EFORMAT;
    }
    return ST_OK;
}

/* Where `s` starts a line of p[0..n), from `from` on; NULL if nowhere. */
static const char *find_line(const char *p, size_t n, size_t from, const char *s)
{
    size_t sl = strlen(s);
    for (size_t i = from; i + sl <= n; i++)
        if ((i == 0 || p[i - 1] == '\n') && !memcmp(p + i, s, sl))
            return p + i;
    return NULL;
}

enum st_err der_rsa_from_pem(const char *pem, size_t n, struct dynbuf *der,
                             struct der_rsa *out)
{
    static const char *const labels[] = {"PRIVATE KEY-----", "RSA PRIVATE KEY-----"};
    memset(out, 0, sizeof *out);
    const char *begin;
    for (size_t from = 0; (begin = find_line(pem, n, from, "-----BEGIN ")); ) {
        size_t at = (size_t)(begin - pem) + 11;
        from = at;
        for (int pkcs1 = 0; pkcs1 < 2; pkcs1++) {
            size_t ll = strlen(labels[pkcs1]);
            if (n - at < ll || memcmp(pem + at, labels[pkcs1], ll) ||
                (n - at > ll && pem[at + ll] != '\n' && pem[at + ll] != '\r'))
                continue;
            char end[40] = "-----END ";
            memcpy(end + 9, labels[pkcs1], ll + 1);
            const char *stop = find_line(pem, n, at + ll, end);
            if (!stop)
                return ST_EFORMAT;
            size_t body = at + ll;
            if (b64_decode(pem + body, (size_t)(stop - pem) - body, der, NULL))
                return ST_EFORMAT;
            return der_rsa_parse((const uint8_t *)der->data, der->len, pkcs1, out);
        }
    }
    return ST_ENOENT;
}

/* ---- writing ------------------------------------------------------------ */

/* The bytes of a length's encoding: one, or 0x80|k and k bytes. */
static size_t len_size(size_t n)
{
    size_t k = 1;
    if (n < 0x80)
        return 1;
    while (k < sizeof n && n >> (8 * k))
        k++;
    return 1 + k;
}

static enum st_err put_hdr(struct dynbuf *b, uint8_t tag, size_t n)
{
    uint8_t h[6] = {tag};
    size_t k = len_size(n) - 1, hl = 2;
    if (!k) {
        h[1] = (uint8_t)n;
    } else {
        h[1] = (uint8_t)(0x80 | k);
        for (size_t i = 0; i < k; i++)
            h[2 + i] = (uint8_t)(n >> (8 * (k - 1 - i)));
        hl += k;
    }
    return dynbuf_add(b, h, hl);
}

static void strip(const uint8_t **v, size_t *n)
{
    while (*n && !**v) {
        (*v)++;
        (*n)--;
    }
}

/* The contents of a minimal INTEGER for v: a sign byte when needed. */
static size_t uint_body(const uint8_t *v, size_t n)
{
    strip(&v, &n);
    return n ? n + (v[0] >> 7) : 1;
}

static size_t uint_size(const uint8_t *v, size_t n)
{
    size_t b = uint_body(v, n);
    return 1 + len_size(b) + b;
}

static enum st_err put_uint(struct dynbuf *b, const uint8_t *v, size_t n)
{
    size_t body = uint_body(v, n);
    strip(&v, &n);
    enum st_err e = put_hdr(b, TAG_INT, body);
    if (!e && body > n)
        e = dynbuf_addc(b, 0);
    return e ? e : dynbuf_add(b, v, n);
}

/* PrivateKeyInfo's DER, sizes first so every header is written once. */
static enum st_err pkcs8_der(const struct der_rsa *k, struct dynbuf *b)
{
    static const uint8_t zero = 0;
    size_t rsa = uint_size(&zero, 1);
    for (int i = 0; i < DER_PARTS; i++)
        rsa += uint_size(k->v[i], k->len[i]);
    size_t rsa_seq = 1 + len_size(rsa) + rsa;
    size_t info = 3 + sizeof rsa_algid + 1 + len_size(rsa_seq) + rsa_seq;
    enum st_err e = put_hdr(b, TAG_SEQ, info);
    if (!e)
        e = put_uint(b, &zero, 1);
    if (!e)
        e = dynbuf_add(b, rsa_algid, sizeof rsa_algid);
    if (!e)
        e = put_hdr(b, TAG_OCTETS, rsa_seq);
    if (!e)
        e = put_hdr(b, TAG_SEQ, rsa);
    if (!e)
        e = put_uint(b, &zero, 1);
    for (int i = 0; !e && i < DER_PARTS; i++)
        e = put_uint(b, k->v[i], k->len[i]);
    return e;
}

enum st_err der_rsa_to_pem(const struct der_rsa *k, struct dynbuf *pem)
{
    struct dynbuf der, b64;
    dynbuf_init(&der, 16384);
    dynbuf_init(&b64, 32768);
    enum st_err e = pkcs8_der(k, &der);
    if (!e)
        e = b64_encode(der.data, der.len, &b64);
    if (!e)
        e = dynbuf_addstr(pem, "-----BEGIN PRIVATE KEY-----\n");
    for (size_t i = 0; !e && i < b64.len; i += 64) {
        e = dynbuf_add(pem, b64.data + i, b64.len - i < 64 ? b64.len - i : 64);
        if (!e)
            e = dynbuf_addc(pem, '\n');
    }
    if (!e)
        e = dynbuf_addstr(pem, "-----END PRIVATE KEY-----\n");
    crypto_cleanse(der.data, der.len);
    crypto_cleanse(b64.data, b64.len);
    dynbuf_free(&der);
    dynbuf_free(&b64);
    return e;
}
