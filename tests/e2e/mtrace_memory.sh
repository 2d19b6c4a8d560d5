# Memory is bounded by the tables and stacks, not the file size: reading a
# 24 MB trace (profile, call graph, timeline) takes about as much memory as
# reading a 4 MB one of the same kind (this also holds under ASan, whose
# own overhead is the same for both).
. "$TOP/tests/lib.sh"
. "$TOP/tests/tools/mtrace_lib.sh"
[ -x /usr/bin/time ] || skip "/usr/bin/time not installed (apt-get install time)"
mk small.trace --bench 4
mk big.trace --bench 24
peak() {   # peak RSS (KB) of systrace ARGS...
    /usr/bin/time -f %M -o rss.txt "$SYSTRACE" "$@" >/dev/null 2>err.txt ||
        fail "systrace $* failed: $(cat err.txt)"
    tail -n 1 rss.txt
}
for mode in --method-profile "--call-graph g.dot" "--method-json -"; do
    # shellcheck disable=SC2086
    s=$(peak $mode small.trace); b=$(peak $mode big.trace)
    echo "$mode: peak RSS $s KB (4 MB file), $b KB (24 MB file)"
    [ $((b - s)) -lt 4096 ] || fail "$mode: memory grows with the file ($s -> $b KB)"
    [ "$b" -lt 65536 ] || fail "$mode: peak RSS $b KB"
done
