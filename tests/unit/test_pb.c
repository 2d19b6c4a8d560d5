/* Unit tests for the protobuf wire reader (formats/perfetto/pb.c): every
 * wire type, packed varints, zigzag, and the malformed inputs a cut or
 * hostile trace holds (varint of 11 bytes, a length past the end, groups,
 * field number 0), each reported and never read past the end. */
#include "testutil.h"

#include "formats/perfetto/pb.h"

static void test_fields(void **state)
{
    (void)state;
    /* 1: varint 150; 2: "hi"; 3: fixed64 1; 4: fixed32 2 */
    static const uint8_t m[] = {0x08, 0x96, 0x01, 0x12, 0x02, 'h', 'i',
                                0x19, 1, 0, 0, 0, 0, 0, 0, 0, 0x25, 2, 0, 0, 0};
    struct pb_iter it;
    struct pb_field f;
    pb_iter_init(&it, m, sizeof(m));
    assert_int_equal(pb_next(&it, &f), 1);
    assert_int_equal(f.num, 1);
    assert_int_equal(f.wire, PB_VARINT);
    assert_int_equal(f.v, 150);
    assert_int_equal(pb_next(&it, &f), 1);
    assert_int_equal(f.num, 2);
    assert_int_equal(f.len, 2);
    assert_memory_equal(f.p, "hi", 2);
    assert_int_equal(pb_next(&it, &f), 1);
    assert_int_equal(f.wire, PB_I64);
    assert_int_equal(f.v, 1);
    assert_int_equal(pb_next(&it, &f), 1);
    assert_int_equal(f.wire, PB_I32);
    assert_int_equal(f.v, 2);
    assert_int_equal(pb_next(&it, &f), 0);
    assert_int_equal(pb_offset(&it), sizeof(m));
}

static void expect_bad(const uint8_t *m, size_t n)
{
    struct pb_iter it;
    struct pb_field f;
    pb_iter_init(&it, m, n);
    int r;
    while ((r = pb_next(&it, &f)) == 1)
        ;
    assert_int_equal(r, -1);
    assert_true(it.bad);
    assert_true(pb_offset(&it) <= n);
    assert_int_equal(pb_next(&it, &f), -1);     /* stays bad */
}

static void test_malformed(void **state)
{
    (void)state;
    static const uint8_t long_varint[] = {0x08, 0xff, 0xff, 0xff, 0xff, 0xff,
                                          0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
    static const uint8_t past_end[] = {0x12, 0x05, 'a', 'b'};
    static const uint8_t cut_varint[] = {0x08, 0x96};
    static const uint8_t group[] = {0x0b, 0x0c};
    static const uint8_t field0[] = {0x00, 0x01};
    static const uint8_t cut_fixed[] = {0x19, 1, 2, 3};
    static const uint8_t huge_len[] = {0x12, 0xff, 0xff, 0xff, 0xff, 0xff,
                                       0xff, 0xff, 0xff, 0xff, 0x01};
    expect_bad(long_varint, sizeof(long_varint));
    expect_bad(past_end, sizeof(past_end));
    expect_bad(cut_varint, sizeof(cut_varint));
    expect_bad(group, sizeof(group));
    expect_bad(field0, sizeof(field0));
    expect_bad(cut_fixed, sizeof(cut_fixed));
    expect_bad(huge_len, sizeof(huge_len));
}

static void test_packed_zigzag(void **state)
{
    (void)state;
    static const uint8_t m[] = {0x0a, 0x04, 0x03, 0x8e, 0x02, 0x00};
    struct pb_iter it;
    struct pb_field f;
    pb_iter_init(&it, m, sizeof(m));
    assert_int_equal(pb_next(&it, &f), 1);
    struct pb_packed pk;
    pb_packed_init(&pk, &f);
    uint64_t v[4];
    int n = 0;
    while (n < 4 && pb_packed_next(&pk, &v[n]) == 1)
        n++;
    assert_int_equal(n, 3);
    assert_int_equal(v[0], 3);
    assert_int_equal(v[1], 270);
    assert_int_equal(v[2], 0);
    assert_int_equal(pb_zigzag(0), 0);
    assert_int_equal(pb_zigzag(1), -1);
    assert_int_equal(pb_zigzag(2), 1);
    assert_int_equal(pb_zigzag(3), -2);
    assert_true(pb_zigzag(UINT64_MAX) == INT64_MIN);

    static const uint8_t cut[] = {0x96};
    f.p = cut;
    f.len = 1;
    pb_packed_init(&pk, &f);
    assert_int_equal(pb_packed_next(&pk, &v[0]), -1);
}

static void test_fixed_types(void **state)
{
    (void)state;
    assert_true(pb_double(0x3ff0000000000000ull) == 1.0);
    assert_true(pb_float(0x40000000u) == 2.0f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fields),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_packed_zigzag),
        cmocka_unit_test(test_fixed_types),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
