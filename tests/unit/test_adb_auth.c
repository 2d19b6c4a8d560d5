/*
 * Unit tests for the ADB host key (adb/adb_auth.c) over lib/rsakey.h and
 * lib/der.c, the same on Linux (OpenSSL) and Windows (CNG, run under Wine
 * by check-windows): a key OpenSSL wrote, in PKCS#8 and PKCS#1, gives the
 * adbkey.pub line and the signature OpenSSL's own tools give; the PEM
 * written for a key is OpenSSL's byte for byte; what is not an RSA key of
 * adb's size is refused; a generated key reads back.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "adb/adb_wire.h"
#include "lib/der.h"
#include "lib/rsakey.h"

/* A 2048-bit test key (made for this test with `openssl genpkey`), as
 * OpenSSL writes it in PKCS#8 and (`openssl rsa -traditional`) PKCS#1. */
static const char key_pkcs8[] =
    "-----BEGIN PRIVATE KEY-----\n"
    "MIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQCqWAJ0Fn0H4KTR\n"
    "/ZP5uBCzkBvX/GiLqeiniO7xJxBZ/zBHGv5KJEyMwkCHWrw668xABEdfyJCSKamd\n"
    "fi3lsSfgyqfpCyyLppfVjL11OkW5u9/dnnJUZfO9KRsQpjce0QhBdj/HDgPng6Ys\n"
    "My2SQd1PYFDaLYb+sOZswIjl/tyesjdUV2jt6tLxPC7uLueIABlZkdrc0rBE1ppZ\n"
    "Lc3KEDfY2q85NVoDN3mx+Yg7bnv3odeM+ve1lCqQyWh1YzcZ1SiqCDp8RD3PKXFz\n"
    "V1iP3DTNEnv2dJP1xQ5yz9FkhxyF5whxth7Pqtmr5cMCRCZyBztMe/sbOpj57+dC\n"
    "parOUPIjAgMBAAECggEAMm3/u/J0bYKaCPjzd/iAKUi+lYDKSp6wm/i0FHymIJ6l\n"
    "4kchhT2d1AYmKGw6UY9BVqptnvO3qS3gYxnZ6Kg70BbvAtUmCOn3BWe3Jx9rSQNP\n"
    "0UJ5Qnc0Y4np01IB+4OS2B5z3zBNA5s79NXp5eTN6hPvm8fisUAZ15RgcwayteA9\n"
    "LDweYL/QwtXz/DW/T3AjsJtxv2N1ROuxFElKMPYbn3BHzPWzExKudR7wwsDjMiK8\n"
    "eU6mlfRRAUKnUlqLh+BgTJKpAYJZj3K5mtO/ke0ko4A3f5gJ92aOpSZ4JaI7sG7N\n"
    "KHMUWmt+izhA9aOTeCErQmWMLAYkXU1KvUMXcH/2YQKBgQDa9YMO6FAJQdrsu5KX\n"
    "H25p3+TrSNIv72tvvr+DV2Ag3bkIc7AdYKtS82taR5d0Hc4f7OP2KZF0OUSYnKqe\n"
    "qi5wi94ikPmmyG7hBgRvAcvWaRQRxV/b+hTJrBQOpT/iv6+JtqYpVX8/xfihawjp\n"
    "jo+y10t6mdMNWlOn4TDn3CE4GwKBgQDHKRxb9pYz3a7pIe+u8doihYkfCn/LFrtj\n"
    "mpWT6Wh9FgyupUDWBjIXfn2imJdhiKD9UXZMWhIVnKLcgAC+nZHDlaQstiA/cZm/\n"
    "q1i9MwMqr50Nb9BS+Sy3/qMYpGH+O1npZ7I9qGfp7Tm8eCoYxA449A6p6mA7AyeA\n"
    "gGLjCl3emQKBgBvuRZGZQNxtcifQpZpxf/wxe1ooJ+fFesb+Zh+y/agzoG7bkxOs\n"
    "SS6DrqYNi9xcEPcxmMLF+rAAvidZlMo4m0PwE54FMFN+Lea2hcpDSGVJci3yJ5BA\n"
    "DnbLZKOZoNSj7xh6HCgZp+nSryyoIrLoZJxDqnUxOiLx6sn3h+2LvxERAoGBAK4L\n"
    "RzU2sNxyhkBF3+fKgw5YFBSEYFlibDAHD2BLQXzOoBafY6GlmHDfoXtOTjx14fp+\n"
    "Dht7OwKX99sqIXxyxsddJjPMlTHcXLgbTVlKEyJihaUQacWY63N/m5gVT22VAGXw\n"
    "sNshKG5NWX9So7cw3hz3azkiESaBAyxRBhnTHWVBAoGBAL1DPl4oG2xyZ05/gz9K\n"
    "LVWDa1tD2IKhy4dNBAtcXDBNX779Cd11g/nYaAMYK1GVbpCpiEKJb/xx2lBwZoke\n"
    "xhN8lcsLeSQNO1tgYjP79tCo61iP3nYEHZNmHskJcnzrveSfHqTsL8UP+Gkzw+Sy\n"
    "aLFNEpGtPbQuZUWXQptXu31a\n"
    "-----END PRIVATE KEY-----\n";
static const char key_pkcs1[] =
    "-----BEGIN RSA PRIVATE KEY-----\n"
    "MIIEpAIBAAKCAQEAqlgCdBZ9B+Ck0f2T+bgQs5Ab1/xoi6nop4ju8ScQWf8wRxr+\n"
    "SiRMjMJAh1q8OuvMQARHX8iQkimpnX4t5bEn4Mqn6Qssi6aX1Yy9dTpFubvf3Z5y\n"
    "VGXzvSkbEKY3HtEIQXY/xw4D54OmLDMtkkHdT2BQ2i2G/rDmbMCI5f7cnrI3VFdo\n"
    "7erS8Twu7i7niAAZWZHa3NKwRNaaWS3NyhA32NqvOTVaAzd5sfmIO25796HXjPr3\n"
    "tZQqkMlodWM3GdUoqgg6fEQ9zylxc1dYj9w0zRJ79nST9cUOcs/RZIcchecIcbYe\n"
    "z6rZq+XDAkQmcgc7THv7GzqY+e/nQqWqzlDyIwIDAQABAoIBADJt/7vydG2Cmgj4\n"
    "83f4gClIvpWAykqesJv4tBR8piCepeJHIYU9ndQGJihsOlGPQVaqbZ7zt6kt4GMZ\n"
    "2eioO9AW7wLVJgjp9wVntycfa0kDT9FCeUJ3NGOJ6dNSAfuDktgec98wTQObO/TV\n"
    "6eXkzeoT75vH4rFAGdeUYHMGsrXgPSw8HmC/0MLV8/w1v09wI7Cbcb9jdUTrsRRJ\n"
    "SjD2G59wR8z1sxMSrnUe8MLA4zIivHlOppX0UQFCp1Jai4fgYEySqQGCWY9yuZrT\n"
    "v5HtJKOAN3+YCfdmjqUmeCWiO7BuzShzFFprfos4QPWjk3ghK0JljCwGJF1NSr1D\n"
    "F3B/9mECgYEA2vWDDuhQCUHa7LuSlx9uad/k60jSL+9rb76/g1dgIN25CHOwHWCr\n"
    "UvNrWkeXdB3OH+zj9imRdDlEmJyqnqoucIveIpD5pshu4QYEbwHL1mkUEcVf2/oU\n"
    "yawUDqU/4r+vibamKVV/P8X4oWsI6Y6PstdLepnTDVpTp+Ew59whOBsCgYEAxykc\n"
    "W/aWM92u6SHvrvHaIoWJHwp/yxa7Y5qVk+lofRYMrqVA1gYyF359opiXYYig/VF2\n"
    "TFoSFZyi3IAAvp2Rw5WkLLYgP3GZv6tYvTMDKq+dDW/QUvkst/6jGKRh/jtZ6Wey\n"
    "Pahn6e05vHgqGMQOOPQOqepgOwMngIBi4wpd3pkCgYAb7kWRmUDcbXIn0KWacX/8\n"
    "MXtaKCfnxXrG/mYfsv2oM6Bu25MTrEkug66mDYvcXBD3MZjCxfqwAL4nWZTKOJtD\n"
    "8BOeBTBTfi3mtoXKQ0hlSXIt8ieQQA52y2SjmaDUo+8YehwoGafp0q8sqCKy6GSc\n"
    "Q6p1MToi8erJ94fti78REQKBgQCuC0c1NrDccoZARd/nyoMOWBQUhGBZYmwwBw9g\n"
    "S0F8zqAWn2OhpZhw36F7Tk48deH6fg4bezsCl/fbKiF8csbHXSYzzJUx3Fy4G01Z\n"
    "ShMiYoWlEGnFmOtzf5uYFU9tlQBl8LDbIShuTVl/UqO3MN4c92s5IhEmgQMsUQYZ\n"
    "0x1lQQKBgQC9Qz5eKBtscmdOf4M/Si1Vg2tbQ9iCocuHTQQLXFwwTV++/QnddYP5\n"
    "2GgDGCtRlW6QqYhCiW/8cdpQcGaJHsYTfJXLC3kkDTtbYGIz+/bQqOtYj952BB2T\n"
    "Zh7JCXJ8673knx6k7C/FD/hpM8PksmixTRKRrT20LmVFl0KbV7t9Wg==\n"
    "-----END RSA PRIVATE KEY-----\n";

/* Its adbkey.pub encoding, computed from `openssl rsa -modulus` by a
 * Python script (n0inv and R^2 mod n with big integers). */
static const char key_pub[] =
    "QAAAAHWyl54j8lDOqqVC5+/5mDob+3tMOwdyJkQCw+Wr2arPHrZxCOeFHIdk0c9yDsX1k3T2"
    "exLNNNyPWFdzcSnPPUR8OgiqKNUZN2N1aMmQKpS19/qM16H3e247iPmxeTcDWjU5r9rYNxDK"
    "zS1ZmtZEsNLc2pFZGQCI5y7uLjzx0urtaFdUN7Ke3P7liMBs5rD+hi3aUGBP3UGSLTMspoPn"
    "Aw7HP3ZBCNEeN6YQGym982VUcp7d37u5RTp1vYzVl6aLLAvpp8rgJ7HlLX6dqSmSkMhfRwRA"
    "zOs6vFqHQMKMTCRK/hpHMP9ZECfx7oin6KmLaPzXG5CzELj5k/3RpOAHfRZ0AliqKYgdPI2G"
    "Uk5Qx+00DiMZ24H+jyMOW+sqtK0/olMmaozMJNAg4cxdXuQ6gCEyWKWTyP+6VEPPX2Z/8/mD"
    "plE6LX2ka6cPJJiZYP5TrKL9Frh8BegDfxRsQDu6epKcmyDDHf4rCDgpTrYAb8yeR9E0nuzS"
    "L4ecYJoyPFD+xUJ2vnU88b75tcsvl3zZnqNco0Qx9gLut3zGuyuq2ix+U7QmKgeaZv2J2dTX"
    "Z3epO9/yIxVG2zggVKnE2w3NaeroqxrKZUFDUhs0Fb+DolFB/RiPNUmlxcCnSdJQpxb22xqT"
    "Tb9L2dW/L+5TARd+zvVGwe4LCFFzqxsSuqg7BnlJDsripAEAAQA=";

/* `openssl pkeyutl -sign -pkeyopt digest:sha1` of this token. */
static const uint8_t token[20] = {0x73, 0x79, 0x73, 0x74, 0x72, 0x61, 0x63, 0x65, 0x2d, 0x74, 0x6f, 0x6b, 0x65, 0x6e, 0x2d, 0x30, 0x31, 0x32, 0x33, 0x01};
static const uint8_t token_sig[256] = {
    0x9c, 0x93, 0x48, 0x48, 0xbf, 0x36, 0x0e, 0xe0, 0x0f, 0xcc, 0x7f, 0xfd,
    0x28, 0x11, 0x88, 0xbb, 0x5a, 0xf1, 0x64, 0xef, 0x14, 0x90, 0x30, 0x79,
    0xab, 0x60, 0xd6, 0xb7, 0xbf, 0xd5, 0xbc, 0x66, 0xf1, 0xd3, 0x77, 0xbf,
    0x6d, 0x38, 0xf1, 0xb0, 0xa3, 0x5b, 0x11, 0x8c, 0xdf, 0x4b, 0x04, 0xb6,
    0x3c, 0xf2, 0xc2, 0xb3, 0x12, 0xe8, 0x3c, 0x6a, 0x3b, 0xef, 0x1d, 0x05,
    0x75, 0x74, 0xf7, 0x8f, 0xc1, 0x1b, 0xe9, 0x2b, 0x54, 0xdd, 0x13, 0x2f,
    0xba, 0x89, 0xf1, 0x81, 0x8a, 0x4e, 0x84, 0x84, 0xc2, 0x18, 0xc9, 0x12,
    0xc1, 0xe9, 0xc4, 0x0a, 0x7f, 0xe4, 0x80, 0x99, 0x3a, 0x10, 0x01, 0x0b,
    0x8d, 0xaf, 0x9f, 0xa6, 0x76, 0x0e, 0xfd, 0x42, 0xd4, 0x45, 0xc5, 0xa8,
    0x18, 0x90, 0x6d, 0x91, 0xd0, 0xa4, 0xd1, 0x4a, 0x21, 0x78, 0xbe, 0x28,
    0xde, 0x11, 0xe4, 0x5c, 0xab, 0x7c, 0x48, 0x84, 0x38, 0xc2, 0x1c, 0xab,
    0x9e, 0x4f, 0x9d, 0x0d, 0xb4, 0xd7, 0xf5, 0x7d, 0x12, 0xde, 0x83, 0x94,
    0x29, 0x40, 0xe0, 0xc2, 0x35, 0x46, 0xdd, 0x24, 0x7b, 0xd4, 0x2f, 0x79,
    0xd8, 0xb6, 0x71, 0x6d, 0xe5, 0x29, 0x8e, 0xbe, 0x0c, 0x79, 0x8a, 0xaa,
    0x54, 0xa1, 0xb3, 0x56, 0x67, 0x9b, 0x60, 0x3e, 0x0e, 0xb7, 0xbb, 0x51,
    0x44, 0x38, 0x99, 0xf9, 0xee, 0x1d, 0xd9, 0x75, 0x90, 0x4e, 0x40, 0xc4,
    0x1a, 0x29, 0x52, 0x3f, 0x5b, 0xc0, 0x45, 0x38, 0x77, 0x6e, 0xe1, 0x9e,
    0xde, 0x6d, 0x83, 0x09, 0x94, 0x53, 0x9d, 0x9f, 0x26, 0x75, 0x2f, 0x99,
    0x00, 0x09, 0xf1, 0x56, 0x7f, 0x0a, 0x89, 0xd8, 0x11, 0x84, 0xc3, 0x5d,
    0x34, 0x45, 0x00, 0xaa, 0xd3, 0x6f, 0xa4, 0x72, 0x9d, 0x11, 0x9f, 0xc4,
    0x14, 0xd7, 0x44, 0x88, 0xf3, 0x53, 0x95, 0xd9, 0x96, 0x3f, 0xc1, 0x95,
    0x3e, 0x4d, 0xe5, 0xfc,
};

/* Not usable as adb keys: an EC key and a 512-bit RSA key. */
static const char key_ec[] =
    "-----BEGIN PRIVATE KEY-----\n"
    "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgHZkBlqmVx6C1CjYM\n"
    "vLB13LwHMKSEB4Eylht2aEtMrF2hRANCAAT/hdV1+SY2+qnW4SQjDbq4L4m2l4OL\n"
    "TeDm27gnd9Lsif5jpW6jahgnse+SAbi5QdzCq5E24CH/3psc3a5VtsOS\n"
    "-----END PRIVATE KEY-----\n";
static const char key_small[] =
    "-----BEGIN PRIVATE KEY-----\n"
    "MIIBVQIBADANBgkqhkiG9w0BAQEFAASCAT8wggE7AgEAAkEA0iBOjBSrXz41mLJa\n"
    "eyyCLrGq+VcQTK0AFqQq2NW01U46hranIjXCM3RctPOZn/uOtgkImd5djbUvBAbn\n"
    "K3fT9QIDAQABAkA9ca0GUVT7eNl7WUwUEKPQu6tfVhIyGbSY6lCNL5C9fqb3rHjK\n"
    "e+JGc/0OwFoACES0pUmXxAjfOtmxEpurBcNRAiEA7ay/Gl8mvWySlm79mkWaTqVu\n"
    "rLPUgPfU1DSyG6DgaWMCIQDiU82LflWKb7OdTn3QwP7Q24RQgNBOJDocWN1317r4\n"
    "xwIhAOiWMnWWRAz/IPyCJT9Bed4Y2pO7b+u9m9MGtn1/E91NAiAQqazTXUy88XZe\n"
    "2X2H1f2ssMywBJvRdPdWSPCdNyPL1wIhAKnfuSgiOYThhfo4brFUd+DSH1FXYlyM\n"
    "duqQWq9V5cTP\n"
    "-----END PRIVATE KEY-----\n";

static struct adb_key *load(const char *pem)
{
    struct adb_key *k = NULL;
    assert_int_equal(adb_key_parse(pem, strlen(pem), &k), ST_OK);
    return k;
}

static void test_public_key_line(void **state)
{
    (void)state;
    const char *forms[] = {key_pkcs8, key_pkcs1};
    for (int i = 0; i < 2; i++) {
        struct adb_key *k = load(forms[i]);
        struct dynbuf b;
        dynbuf_init(&b, 4096);
        assert_int_equal(adb_key_pub_b64(k, &b), ST_OK);
        assert_string_equal(dynbuf_str(&b), key_pub);
        dynbuf_free(&b);
        adb_key_free(k);
    }
}

static void test_signature_is_openssls(void **state)
{
    (void)state;
    const char *forms[] = {key_pkcs8, key_pkcs1};
    for (int i = 0; i < 2; i++) {
        struct adb_key *k = load(forms[i]);
        uint8_t sig[ADB_AUTH_SIG_MAX];
        size_t n = 0;
        assert_int_equal(adb_key_sign(k, token, sizeof token, sig, &n), ST_OK);
        assert_int_equal(n, sizeof token_sig);
        assert_memory_equal(sig, token_sig, n);
        adb_key_free(k);
    }
}

static void test_device_side_check(void **state)
{
    (void)state;
    struct adb_pubkey *pk = NULL;
    assert_int_equal(adb_pubkey_parse(key_pub, strlen(key_pub), &pk), ST_OK);
    assert_true(adb_pubkey_verify(pk, token, sizeof token, token_sig, sizeof token_sig));
    uint8_t bad[sizeof token_sig];
    memcpy(bad, token_sig, sizeof bad);
    bad[100] ^= 1;
    assert_false(adb_pubkey_verify(pk, token, sizeof token, bad, sizeof bad));
    uint8_t tok2[sizeof token];
    memcpy(tok2, token, sizeof tok2);
    tok2[0] ^= 1;
    assert_false(adb_pubkey_verify(pk, tok2, sizeof tok2, token_sig, sizeof token_sig));
    adb_pubkey_free(pk);
}

/* Either form read, PKCS#8 written: OpenSSL's own PKCS#8 text. */
static void test_pem_written_as_openssl(void **state)
{
    (void)state;
    const char *forms[] = {key_pkcs8, key_pkcs1};
    for (int i = 0; i < 2; i++) {
        struct dynbuf der, pem;
        dynbuf_init(&der, 8192);
        dynbuf_init(&pem, 8192);
        struct der_rsa k;
        assert_int_equal(der_rsa_from_pem(forms[i], strlen(forms[i]), &der, &k), ST_OK);
        assert_int_equal(k.len[DER_N], 256);
        assert_int_equal(k.len[DER_E], 3);
        assert_int_equal(der_rsa_to_pem(&k, &pem), ST_OK);
        assert_string_equal(dynbuf_str(&pem), key_pkcs8);
        dynbuf_free(&der);
        dynbuf_free(&pem);
    }
}

/* A PEM text with the DER of `pem`'s key changed by edit(). */
static enum st_err parse_edited(const char *pem, void (*edit)(struct dynbuf *))
{
    struct dynbuf der, out;
    struct der_rsa k;
    dynbuf_init(&der, 8192);
    dynbuf_init(&out, 8192);
    assert_int_equal(der_rsa_from_pem(pem, strlen(pem), &der, &k), ST_OK);
    edit(&der);
    enum st_err e = der_rsa_parse((const uint8_t *)der.data, der.len, 0, &k);
    dynbuf_free(&der);
    dynbuf_free(&out);
    return e;
}

static void add_trailing_byte(struct dynbuf *d)
{
    dynbuf_addc(d, 0);
}

static void cut_last_byte(struct dynbuf *d)
{
    d->len--;
}

static void negative_version(struct dynbuf *d)
{
    assert_int_equal((uint8_t)d->data[6], 0);  /* 30 82 LL LL 02 01 00 */
    d->data[6] = (char)0x80;
}

/* 02 01 00 -> 02 81 01 00 (a length that fits the short form), the outer
 * SEQUENCE's length one more so only the version is wrong. */
static void long_form_version(struct dynbuf *d)
{
    dynbuf_addc(d, 0);
    memmove(d->data + 6, d->data + 5, d->len - 6);
    d->data[5] = (char)0x81;
    unsigned outer = (uint8_t)d->data[2] << 8 | (uint8_t)d->data[3];
    d->data[2] = (char)((outer + 1) >> 8);
    d->data[3] = (char)(outer + 1);
}

static void test_refused(void **state)
{
    (void)state;
    struct adb_key *k;
    const char *bad[] = {key_ec, key_small, "", "-----BEGIN PRIVATE KEY-----\n",
                         "-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n",
                         "-----BEGIN PRIVATE KEY-----\n!!!!\n-----END PRIVATE KEY-----\n",
                         "not a key\n"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(adb_key_parse(bad[i], strlen(bad[i]), &k), ST_EFORMAT);
    /* cut in the middle of the base64 */
    assert_int_equal(adb_key_parse(key_pkcs8, strlen(key_pkcs8) / 2, &k), ST_EFORMAT);
    assert_int_equal(parse_edited(key_pkcs8, add_trailing_byte), ST_EFORMAT);
    assert_int_equal(parse_edited(key_pkcs8, cut_last_byte), ST_EFORMAT);
    assert_int_equal(parse_edited(key_pkcs8, negative_version), ST_EFORMAT);
    assert_int_equal(parse_edited(key_pkcs8, long_form_version), ST_EFORMAT);
}

/* Text before the key (a comment, another block) does not hide it. */
static void test_text_around(void **state)
{
    (void)state;
    struct dynbuf b;
    dynbuf_init(&b, 16384);
    dynbuf_printf(&b, "# team key\n-----BEGIN CERTIFICATE-----\nAAAA\n"
                      "-----END CERTIFICATE-----\n%s", key_pkcs1);
    struct adb_key *k = load(dynbuf_str(&b));
    adb_key_free(k);
    dynbuf_free(&b);
}

static void test_generated_key(void **state)
{
    (void)state;
    struct dynbuf pem;
    dynbuf_init(&pem, ADB_KEYFILE_MAX);
    struct rsakey *gen = NULL;
    assert_int_equal(rsakey_generate(2048, &pem, &gen), ST_OK);
    assert_int_equal(rsakey_bits(gen), 2048);
    assert_true(strncmp(dynbuf_str(&pem), "-----BEGIN PRIVATE KEY-----\n", 28) == 0);
    struct rsakey *back = NULL;
    assert_int_equal(rsakey_parse_pem(pem.data, pem.len, 4096, &back), ST_OK);
    uint8_t n1[256], n2[256], sig[512];
    uint32_t e1 = 0, e2 = 0;
    assert_int_equal(rsakey_public(gen, n1, sizeof n1, &e1), ST_OK);
    assert_int_equal(rsakey_public(back, n2, sizeof n2, &e2), ST_OK);
    assert_memory_equal(n1, n2, sizeof n1);
    assert_int_equal(e1, 65537);
    assert_int_equal(e2, 65537);
    size_t n = 0;
    assert_int_equal(rsakey_sign_sha1(back, token, sizeof token, sig, sizeof sig, &n), ST_OK);
    assert_int_equal(n, 256);
    assert_true(rsakey_verify_sha1(gen, token, sizeof token, sig, n));
    rsakey_free(gen);
    rsakey_free(back);
    dynbuf_free(&pem);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_public_key_line),
        cmocka_unit_test(test_signature_is_openssls),
        cmocka_unit_test(test_device_side_check),
        cmocka_unit_test(test_pem_written_as_openssl),
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_text_around),
        cmocka_unit_test(test_generated_key),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
