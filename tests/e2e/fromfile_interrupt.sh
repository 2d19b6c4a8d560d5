# Ctrl-C or SIGTERM during a conversion ends it at once and leaves neither
# the output nor its temporary file.  A FIFO as input holds the conversion
# mid-file, so the signal always arrives while it runs.
. "$TOP/tests/lib.sh"
for sig in INT TERM; do
    mkfifo in.fifo
    "$SYSTRACE" --from-file in.fifo -o out.html -q 2>err.txt &
    pid=$!
    exec 3>in.fifo
    head -c 200000 "$TOP/tests/data/sample.txt" >&3
    sed -n '5,$p' "$TOP/tests/data/sample.txt" >&3
    wait_for() { i=0; while ! ls | grep -q '\.tmp\.'; do i=$((i+1)); [ $i -gt 100 ] && return 1; sleep 0.05; done; }
    wait_for || fail "$sig: conversion never started writing"
    kill -$sig $pid
    wait $pid; rc=$?
    exec 3>&-
    want=130; [ $sig = TERM ] && want=143
    [ $rc -eq $want ] || { cat err.txt; fail "$sig: exit $rc, expected $want"; }
    assert_contains err.txt "interrupted; nothing written"
    [ ! -e out.html ] || fail "$sig: output written"
    ls | grep -q '\.tmp\.' && fail "$sig: temporary file left"
    rm -f in.fifo
done
echo ok
