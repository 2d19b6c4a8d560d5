# Ctrl-C or SIGTERM while a piece is cut (issue 35) ends it at once and
# leaves neither the output nor the temporary whole result in TMPDIR.  A
# FIFO as input holds the first pass mid-file.
. "$TOP/tests/lib.sh"
python3 "$TOP/tests/tools/genpieces.py" g.txt 3000 || fail "genpieces"
for sig in INT TERM; do
    mkfifo in.fifo
    "$SYSTRACE" --from-file in.fifo --time-range=1..2 -o out.html -q 2>err.txt &
    pid=$!
    exec 3>in.fifo
    head -c 100000 g.txt >&3
    started() { [ -n "$(ls -A "$TMPDIR")" ]; }
    i=0
    while ! started; do i=$((i+1)); [ $i -gt 100 ] && fail "$sig: nothing written"; sleep 0.05; done
    kill -$sig $pid
    wait $pid; rc=$?
    exec 3>&-
    want=130; [ $sig = TERM ] && want=143
    [ $rc -eq $want ] || { cat err.txt; fail "$sig: exit $rc, expected $want"; }
    assert_contains err.txt "interrupted; nothing written"
    [ ! -e out.html ] || fail "$sig: output written"
    [ -z "$(ls -A "$TMPDIR")" ] || fail "$sig: left in TMPDIR: $(ls -A "$TMPDIR")"
    ! ls | grep -q '\.tmp\.' || fail "$sig: temporary file left"
    rm -f in.fifo
done
echo ok
