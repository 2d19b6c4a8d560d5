# --open when the browser cannot start: $BROWSER naming nothing, a command
# that fails at once (xdg-open with no method, over SSH), every candidate
# failing: one warning line naming the page to open by hand; the page is
# written and the exit status stays 0.  -j --open says why nothing opens.
# A browser that starts (exits 0, or stays open) gives no warning.
. "$TOP/tests/lib.sh"
printf '# tracer: nop\n  app-1 ( 1) [000] ...1 1.000000: tracing_mark_write: B|1|x\n' >in.txt
mkdir bin
printf '#!/bin/sh\necho "xdg-open: no method available for opening %s" >&2\nexit 3\n' "\$1" \
    >bin/xdg-open
printf '#!/bin/sh\nexit 4\n' >bin/failing
printf '#!/bin/sh\necho "$1" >>"%s/opened.txt"\n' "$T" >bin/quick
chmod +x bin/xdg-open bin/failing bin/quick
warned() {   # WHAT: one warning line, naming the page
    [ "$(grep -c "warning: --open" err.txt)" = 1 ] || { cat err.txt; fail "$1: not one warning"; }
    assert_contains err.txt "file://$T/"
}

# $BROWSER names nothing that exists; xdg-open has no method
BROWSER=/nonexistent PATH="$T/bin" run_st 0 --from-file in.txt -o a.html --open
warned "BROWSER=/nonexistent"
assert_contains err.txt "xdg-open"
[ -s a.html ] || fail "the page was not written"

# $BROWSER fails at once
BROWSER="$T/bin/failing" PATH="$T/bin" run_st 0 --from-file in.txt -o b.html --open
warned "a failing browser"
assert_contains err.txt "failing"
[ -s b.html ] || fail "the page was not written"

# -j: no page to show
BROWSER="$T/bin/quick" run_st 0 --from-file in.txt -o c.json -j --open
[ "$(grep -c "warning: --open" err.txt)" = 1 ] || { cat err.txt; fail "-j --open: not one warning"; }
assert_contains err.txt "-j"
[ ! -e opened.txt ] || fail "-j: a browser was started"

# a browser that starts: no word
BROWSER="$T/bin/quick" run_st 0 --from-file in.txt -o d.html --open
assert_not_contains err.txt "warning"
wait_for() { i=0; while ! "$@" 2>/dev/null; do i=$((i + 1)); [ $i -lt 100 ] || return 1; sleep 0.1; done; }
wait_for test -s opened.txt || fail "the browser was not started"
assert_contains opened.txt "file://$T/d.html"
echo ok
