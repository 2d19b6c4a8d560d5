# The timeline of every readable corpus file is valid, nested JSON with one
# slice per method entry (plus synthetic frames for those already running
# when tracing began); unreadable files fail with the byte offset.
. "$TOP/tests/lib.sh"
. "$TOP/tests/tools/mtrace_lib.sh"
need_corpus methodtrace
for f in chanjin-2014/SNS_Tracing_4_Logout.trace \
         dalvik-apps/BurrOakApp-dmtrace.trace \
         dalvik-apps/JAGAndroidFramework-dmtrace.trace \
         perflib-2017/basic-api10.trace perflib-2017/basic.trace \
         perflib-2017/exception.trace perflib-2017/mismatched.trace \
         studio-perflib-2022/char_2_bytes.trace \
         studio-perflib-2022/streaming.trace tracereader-2017/test2.trace
do
    json_check "$MCORPUS/$f"
    b=$(jget B); s=$(jget synthetic_begin)
    if command -v dmtracedump >/dev/null 2>&1 && [ "${f#*streaming}" = "$f" ]; then
        ent=$(dmtracedump -o "$MCORPUS/$f" | awk '$2 == "ent"' | wc -l)
        assert_eq "slices of $f" "$ent" "$((b - s))"
    fi
done
# char_2_bytes: 139 exits without entries, mostly mid-trace
json_check "$MCORPUS/studio-perflib-2022/char_2_bytes.trace"
assert_eq "char_2_bytes synthetic" 139 "$(jget synthetic_begin)"
assert_eq "tid is the Linux tid" main "$(jget names.13705)"
run_st 1 --method-json x.json "$MCORPUS/perflib-2017/header.trace"
assert_contains err.txt "unsupported data version 25610 (0x640a) at offset 561"
run_st 1 --method-profile "$MCORPUS/studio-perflib-2022/basic-special_char.trace"
assert_contains err.txt "bad record size 1186 in data header at offset 860"
[ -e x.json ] && fail "output left behind"
exit 0
