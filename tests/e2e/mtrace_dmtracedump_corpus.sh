# Differential: on every corpus file dmtracedump can read, our profile has
# the same numbers as its profile (text and TSV); the streaming file equals
# dmtracedump's profile of its classic conversion.
. "$TOP/tests/lib.sh"
. "$TOP/tests/tools/mtrace_lib.sh"
need_corpus methodtrace
need_dmtracedump
n=0
for f in chanjin-2014/SNS_Tracing_4_Logout.trace \
         dalvik-apps/BurrOakApp-dmtrace.trace \
         dalvik-apps/JAGAndroidFramework-dmtrace.trace \
         derived/BurrOakApp.v2-thread-cpu.trace \
         derived/studio-streaming.classic.trace \
         perflib-2017/basic-api10.trace perflib-2017/basic.trace \
         perflib-2017/exception.trace perflib-2017/mismatched.trace \
         studio-perflib-2022/char_2_bytes.trace tracereader-2017/test2.trace
do
    [ -f "$MCORPUS/$f" ] || fail "corpus file $f missing"
    same_profile "$MCORPUS/$f" "$MCORPUS/$f"
    n=$((n + 1))
done
# dmtracedump cannot read streaming files; derived/ holds its conversion
same_profile "$MCORPUS/derived/studio-streaming.classic.trace" \
    "$MCORPUS/studio-perflib-2022/streaming.trace"
# the dual-clock original and its thread-cpu-only reduction agree
same_profile "$MCORPUS/derived/BurrOakApp.v2-thread-cpu.trace" \
    "$MCORPUS/dalvik-apps/BurrOakApp-dmtrace.trace" --method-clock cpu
echo "$n corpus files match dmtracedump"
