# Broken inputs: one error line "systrace: FILE: problem" naming the byte
# offset where there is one, exit 1, and no output file left behind.
. "$TOP/tests/lib.sh"
. "$TOP/tests/tools/mtrace_lib.sh"
script='thread 1 main
method 0x100 a/A f ()V A.java 1
ent 1 0x100 1 1
xit 1 0x100 2 2'
broken() {   # NAME EXPECTED-MESSAGE (after "systrace: NAME: ")
    run_st 1 --call-graph out.dot "$1"
    assert_eq "error for $1" "systrace: $1: $2" "$(cat err.txt)"
    [ -e out.dot ] && fail "out.dot left behind for $1"
    ls | grep -q 'tmp' && fail "temporary file left behind for $1"
    run_st 1 --method-profile "$1"
    [ -s out.txt ] && fail "profile printed for $1"
    return 0
}
echo "$script" | mk keyonly.trace --key-only
n=$(wc -c <keyonly.trace)
broken keyonly.trace "key section only, no data after *end at offset $n"
# a binary part transcoded cp1252 -> UTF-8 (Dalvik-style ids, epoch start)
printf 'thread 1 main\nmethod 0x62830738 a/A f ()V A.java 1\nent 1 0x62830738 1 1\n' |
    mk mangled.trace --mangle --start 1374703971214759
m=$(grep -abo SLOW mangled.trace | cut -d: -f1)
broken mangled.trace "bad record size 1186 in data header at offset $((m + 16)) (binary data mangled?)"
echo "$script" | mk shorthdr.trace --truncate 48
broken shorthdr.trace "truncated data header at offset $n"
echo "$script" | mk vmis.trace --key-version 2
broken vmis.trace "data version 3 at offset $((n + 4)) does not match the key's version 2"
echo "$script" | mk v2fmt.trace --format stream --header-version 0xF5
broken v2fmt.trace "the new ART method-trace format (version 0xf5) is not supported, at offset 4"
printf 'SIMPLEPERF\0\0\0\0' >perf.trace
broken perf.trace "not an Android method trace: this is a simpleperf recording"
: >empty.trace
broken empty.trace "empty file"
broken missing.trace "cannot open: No such file or directory"
printf '*version\n3\n*threads\n*methods\n0x100 no-tab\n*end\n' >badm.trace
broken badm.trace "bad method line '0x100 no-tab' at offset 29"
printf '*version\n3\nclock=dual\n*threads\n1\tmain\n' >noend.trace
broken noend.trace "key section ends without *end at offset 38"
# a partial last record is ignored with a warning (exit 3), not an error
echo "$script" | mk partial.trace --truncate 5
run_st 3 --method-profile partial.trace
assert_eq "warning" "systrace: partial.trace: warning: truncated record at offset $((n + 32 + 14)) ignored" "$(cat err.txt)"
assert_contains out.txt "Total cycles: 0"
