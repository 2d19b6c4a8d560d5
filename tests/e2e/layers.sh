# The include rules of scripts/checklayers: the tree as it is passes, and
# each kind of upward or unnamed include fails naming the file and the
# include.  libadb.a holds adb/ and lib/ objects only.
. "$TOP/tests/lib.sh"
"$TOP/scripts/checklayers" "$TOP" >ok.txt 2>&1 || { cat ok.txt; fail "tree breaks its layers"; }
assert_contains ok.txt "keep to their layers"

# violate FILE INCLUDE-LINE EXPECTED-TEXT: a copy of the tree with one
# include added must fail and say so
violate() {
    rm -rf tree; mkdir tree
    (cd "$TOP" && tar cf - lib adb formats agents src) | (cd tree && tar xf -)
    printf '%s\n' "$2" >>"tree/$1"
    if "$TOP/scripts/checklayers" "$PWD/tree" >v.txt 2>&1; then
        cat v.txt; fail "$1 with $2 passed"
    fi
    assert_contains v.txt "$1: $2"
    assert_contains v.txt "$3"
}
violate lib/dynbuf.c '#include "adb/adb.h"' "lib/ may not include adb/"
violate adb/packet.c '#include "formats/atrace/decode.h"' "adb/ may not include formats/"
violate formats/atrace/decode.c '#include "agents/capture.h"' "formats/ may not include agents/"
violate formats/mtrace/mtrace_api.c '#include "src/options.h"' "formats/ may not include src/"
violate agents/android/atrace/atrace.c '#include "src/ui.h"' "agents/ may not include src/"
violate agents/capture.c '#include "dynbuf.h"' "not beside"
violate agents/capture.c '#include "lib/nosuch.h"' "no such file"
violate formats/atrace/repair.c '#include <curl/curl.h>' "only its wrapper module"

# files call down, not around: coverage.c is below repair.c (repair calls
# coverage_init); a call back up closes a circle, named with its function
rm -rf tree; mkdir tree
(cd "$TOP" && tar cf - lib adb formats agents src) | (cd tree && tar xf -)
printf 'void coverage_up(void);\nvoid coverage_up(void)\n{\n    repair_free(0);\n}\n' \
    >>tree/formats/atrace/coverage.c
if "$TOP/scripts/checklayers" "$PWD/tree" >c.txt 2>&1; then cat c.txt; fail "a circle passed"; fi
assert_contains c.txt "files call each other in a circle"
assert_contains c.txt "formats/atrace/coverage.c -> formats/atrace/repair.c (repair_free)"
# across rooms too: a way calling the agent's face
rm -rf tree; mkdir tree
(cd "$TOP" && tar cf - lib adb formats agents src) | (cd tree && tar xf -)
printf 'void pf_up(void);\nvoid pf_up(void)\n{\n    atrace_agent.stop(0);\n}\n' \
    >>tree/agents/android/perfetto/pfwait.c
printf 'void face_down(void);\nvoid face_down(void)\n{\n    pfwait_free(0);\n}\n' \
    >>tree/agents/android/atrace/atrace.c
if "$TOP/scripts/checklayers" "$PWD/tree" >c.txt 2>&1; then cat c.txt; fail "a circle across rooms passed"; fi
assert_contains c.txt "agents/android/atrace/atrace.c"
assert_contains c.txt "agents/android/perfetto/pfwait.c"

# the ADB library stands alone
lib=$BUILD/libadb.a
[ -f "$lib" ] || fail "$lib not built (make libadb)"
ar t "$lib" >members.txt
[ -s members.txt ] || fail "libadb.a is empty"
for m in $(cat members.txt); do
    base=${m%.o}
    [ -f "$TOP/adb/$base.c" ] || [ -f "$TOP/lib/$base.c" ] || fail "libadb.a holds $m"
done
grep -qx 'adb_shell.o' members.txt || fail "libadb.a lacks adb_shell.o"
echo ok
