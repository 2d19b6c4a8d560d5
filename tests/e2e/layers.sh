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
