# --call-graph writes the DOT graph dmtracedump -g draws (same nodes,
# labels and edges for each threshold), with record-label characters
# escaped so dot accepts methods like <init>.
. "$TOP/tests/lib.sh"
. "$TOP/tests/tools/mtrace_lib.sh"
dotsets() {
    python3 - "$1" <<'P'
import re, sys
s = open(sys.argv[1]).read()
nodes = sorted(re.findall(r'^node(\d+)\[label = "\[\d+\] .* \((\d+, \d+, \d+)\)"\]$', s, re.M))
edges = sorted(re.findall(r'^node(\d+) -> node(\d+)$', s, re.M))
import hashlib
print(len(nodes), len(edges), hashlib.md5(repr((nodes, edges)).encode()).hexdigest())
P
}
mk gen.trace --random 30000 --seed 9
files="gen.trace"
if [ -d "$MCORPUS" ]; then
    files="$files $MCORPUS/studio-perflib-2022/char_2_bytes.trace"
    files="$files $MCORPUS/chanjin-2014/SNS_Tracing_4_Logout.trace"
fi
if command -v dmtracedump >/dev/null 2>&1; then
    # dmtracedump renders with dot (slow on big graphs): give it a stub
    mkdir stub && printf '#!/bin/sh\nexit 0\n' >stub/dot && chmod +x stub/dot
    for f in $files; do
        for t in 20 5 0; do
            PATH="$PWD/stub:$PATH" dmtracedump -g dm.png -k -t $t "$f" \
                >/dev/null 2>&1
            [ -s dm.png.dot ] || fail "dmtracedump wrote no graph for $f"
            run_st 0 --call-graph ours.dot --call-graph-threshold $t "$f"
            a=$(dotsets dm.png.dot); b=$(dotsets ours.dot)
            assert_eq "graph of $f at $t%" "$a" "$b"
            rm -f dm.png.dot dm.png
        done
    done
fi
# fewer nodes at a higher threshold
run_st 0 --call-graph g50.dot --call-graph-threshold 50 gen.trace
run_st 0 --call-graph g0.dot --call-graph-threshold 0 gen.trace
[ "$(grep -c label g50.dot)" -lt "$(grep -c label g0.dot)" ] || fail "threshold has no effect"
run_st 2 --call-graph x.dot --call-graph-threshold 101 gen.trace
mk init.trace <<'S'
thread 1 main
method 0x100 a/B <init> ()V B.java 1
method 0x104 a/B{x} f|g ()V B.java 2
ent 1 0x100 0 0
ent 1 0x104 1 1
xit 1 0x104 3000 3000
xit 1 0x100 5000 5000
S
run_st 0 --call-graph init.dot init.trace
assert_contains init.dot 'node1[label = "[1] a/B.\<init\> (5, 2, 1)"]'
assert_contains init.dot 'node2[label = "[2] a/B\{x\}.f\|g (2, 2, 1)"]'
if command -v dot >/dev/null 2>&1; then
    dot -Tsvg init.dot >init.svg 2>dot.err || fail "dot rejects our graph: $(cat dot.err)"
fi
