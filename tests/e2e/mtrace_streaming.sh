# Streaming files (header 0xF3, inline method/thread packets, summary at
# the end): names from packets win over the summary, threads only named in
# the summary still get names, a file cut short (no summary, or inside a
# packet) is read as far as it goes with a warning and exit status 3, and
# an unknown packet type is an error naming its offset.
. "$TOP/tests/lib.sh"
. "$TOP/tests/tools/mtrace_lib.sh"
cat >s.txt <<'S'
method 0 j.l.Thread run ()V Thread.java
thread 5 inline-name
method 0x4 j.l.Obj wait ()V \t
ent 5 0 1 100
ent 5 0x4 2 110
summary-thread 5 summary-name
summary-thread 6 only-in-summary
ent 6 0x4 3 120
xit 6 0x4 4 130
xit 5 0x4 5 140
xit 5 0 6 150
S
mk s.trace --format stream --vm art --pid 4242 <s.txt
json_check s.trace
assert_eq "inline name wins" inline-name "$(jget names.5)"
assert_eq "summary name" only-in-summary "$(jget names.6)"
grep -q '"pid":4242' out.json || fail "pid from the summary not used"
grep -q '"name":"Obj.wait","args":{"class":"j.l.Obj","signature":"()V"}' out.json ||
    fail "ART method line with an empty file column misparsed"

mk cut.trace --format stream --no-summary <s.txt
run_st 3 --method-profile cut.trace
assert_contains err.txt "cut.trace: warning: streaming trace has no summary"
assert_contains out.txt "Total cycles: "

mk mid.trace --format stream --truncate 30 <s.txt
run_st 3 --method-profile mid.trace
assert_contains err.txt "mid.trace: warning: truncated record at offset"

printf 'raw 0000 09 0000\n' | mk bad.trace --format stream
run_st 1 --method-profile bad.trace
assert_eq "error" "systrace: bad.trace: unknown streaming packet type 9 at offset 32" \
    "$(cat err.txt)"
