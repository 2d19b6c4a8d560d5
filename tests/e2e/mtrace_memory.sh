# Memory is bounded by the tables and stacks, not the file size: reading a
# 24 MB trace (profile, call graph, timeline) peaks well below its size.
. "$TOP/tests/lib.sh"
. "$TOP/tests/tools/mtrace_lib.sh"
[ -x /usr/bin/time ] || skip "/usr/bin/time not installed (apt-get install time)"
mk big.trace --bench 24
size_kb=$(( $(wc -c <big.trace) / 1024 ))
for args in "--method-profile big.trace" "--call-graph g.dot big.trace" \
            "--method-json - big.trace"; do
    # shellcheck disable=SC2086
    /usr/bin/time -f %M -o rss.txt "$SYSTRACE" $args >/dev/null 2>err.txt ||
        fail "systrace $args failed: $(cat err.txt)"
    rss=$(tail -n 1 rss.txt)
    echo "$args: peak RSS $rss KB for a $size_kb KB file"
    [ "$rss" -lt $((size_kb / 2)) ] || fail "peak RSS $rss KB for $args"
done
