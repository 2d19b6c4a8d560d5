# --open=perfetto's loopback server against clients that are not the UI
# (issue 37, items 9 and 10): a client that asks for the trace and never
# reads, 24 idle connections, a request under another Host name (a page
# reaching 127.0.0.1 by DNS rebinding), a probe that is not the UI's fetch;
# and Ctrl-C while serving, after a conversion and after a capture.  The
# UI's real fetch (GET of the path with Origin https://ui.perfetto.dev)
# must still work after all of them, and the run succeeds with its output.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
command -v curl >/dev/null || skip "curl absent"
[ -x "$BUILD/tools/pfgen" ] || fail "$BUILD/tools/pfgen not built (make tools)"
PORT=$(free_port)
export SYSTRACE_OPEN_PORT=$PORT
cat >idle <<EOS2
#!/bin/sh
echo "\$1" >>"$T/opened.txt"
EOS2
chmod +x idle
export BROWSER="$T/idle"
# larger than what loopback sockets buffer, so a client that does not read
# leaves the server with bytes it cannot send
"$BUILD/tools/pfgen" 24M big.perfetto-trace >/dev/null || fail "pfgen"
URL="http://127.0.0.1:$PORT/big.perfetto-trace"
ORIGIN='Origin: https://ui.perfetto.dev'

serve_bg() {    # ARGS...: systrace in the background until it serves
    fresh_out
    "$SYSTRACE" "$@" >out.txt 2>err.txt </dev/null &
    st=$!
    track_pid $st
    wait_for 60 grep -q "^Serving" out.txt || { cat out.txt err.txt; fail "never served"; }
}
ended() {       # EXPECTED_RC: systrace ended by itself with that status
    wait_for 60 sh -c "! kill -0 $st" || fail "still serving"
    wait $st
    rc=$?
    [ "$rc" = "$1" ] || { cat out.txt err.txt; fail "exit $rc, expected $1"; }
}
ui_fetch() {    # OUT: the UI's fetch; the status code on stdout
    curl -s -m 30 -o "$1" -w '%{http_code}' -H "$ORIGIN" "$URL"
}

# -- a client that asks for the trace as the UI does and never reads: the
# timeout still ends serving (it used to block on the send for good)
SYSTRACE_OPEN_TIMEOUT=3 serve_bg --from-file big.perfetto-trace --open=perfetto -o a.html
python3 - "$PORT" <<'PY' &
import socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.sendall(b"GET /big.perfetto-trace HTTP/1.1\r\nHost: 127.0.0.1:%s\r\n"
          b"Origin: https://ui.perfetto.dev\r\n\r\n" % sys.argv[1].encode())
time.sleep(90)      # never reads
PY
track_pid $!
ended 0
assert_contains err.txt "not fetched within 3 s, stopped serving"
[ -s a.html ] || fail "no page"

# -- another Host name is refused and does not count; a probe (a plain
# GET without the UI's origin, a HEAD, a preflight) does not end serving;
# the UI's fetch then gets the whole trace
serve_bg --from-file big.perfetto-trace --open=perfetto -o b.html
code=$(curl -s -o evil.bin -w '%{http_code}' -H "Host: rebind.example:$PORT" -H "$ORIGIN" "$URL")
[ "$code" = 403 ] || fail "a foreign Host got $code"
[ ! -s evil.bin ] || fail "a foreign Host got the trace"
code=$(curl -s -o /dev/null -w '%{http_code}' -H "Host: localhost:$PORT" -I "$URL")
[ "$code" = 200 ] || fail "localhost:PORT refused ($code)"
curl -s -o probe.bin "$URL" || fail "a plain GET failed"
cmp -s probe.bin big.perfetto-trace || fail "a plain GET got other bytes"
curl -s -X OPTIONS -D other.txt -o /dev/null -H 'Origin: https://example.com' \
     -H 'Access-Control-Request-Private-Network: true' "$URL"
! grep -qi "Private-Network" other.txt || fail "private network access granted to another origin"
curl -s -X OPTIONS -D pre.txt -o /dev/null -H "$ORIGIN" \
     -H 'Access-Control-Request-Private-Network: true' "$URL"
grep -qi "^Access-Control-Allow-Private-Network: true" pre.txt || fail "no private network header"
kill -0 $st 2>/dev/null || { cat out.txt err.txt; fail "a probe ended serving"; }
[ "$(ui_fetch got.bin)" = 200 ] || fail "the UI's fetch failed after the probes"
ended 0
cmp -s got.bin big.perfetto-trace || fail "the UI got other bytes"
assert_contains out.txt "ui.perfetto.dev fetched big.perfetto-trace; stopped serving"

# -- 24 idle connections first (a browser's preconnects, or a hostile
# page): the UI's fetch is served at once, not after 24 x 5 s
SYSTRACE_OPEN_TIMEOUT=60 serve_bg --from-file big.perfetto-trace --open=perfetto -o c.html
python3 - "$PORT" <<'PY' &
import socket, sys, time
conns = []
for _ in range(24):     # a server that accepts slowly may leave some unmade
    try:
        conns.append(socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=1))
    except OSError:
        pass
open("idle.ready", "w").close()
time.sleep(90)
PY
track_pid $!
wait_for 30 test -e idle.ready || fail "idle connections not made"
[ "$(ui_fetch got.bin)" = 200 ] || fail "the UI's fetch failed behind idle connections"
ended 0
cmp -s got.bin big.perfetto-trace || fail "the UI got other bytes"
assert_contains out.txt "ui.perfetto.dev fetched"

# -- Ctrl-C while serving a conversion's output: serving stops, one line
# says so, the page is kept, exit 0
serve_bg --from-file big.perfetto-trace --open=perfetto -o d.html
kill -INT $st
ended 0
assert_contains err.txt "interrupted, stopped serving (the output is kept)"
assert_not_contains err.txt "nothing written"
[ "$(grep -c . err.txt)" = 1 ] || { cat err.txt; fail "more than one line"; }
[ -s d.html ] || fail "the page was not kept"

# -- and after a capture: the first Ctrl-C stops serving (it used to say
# "still writing the page" and serve on)
start_adb_server
start_sim
serve_bg --perfetto -t 1 --open=perfetto -o e.html -e "$SIM_SERIAL" sched
kill -INT $st
ended 0
assert_contains err.txt "interrupted, stopped serving (the output is kept)"
assert_not_contains err.txt "still writing the page"
[ -s e.html ] && [ -s e.perfetto-trace ] || fail "the capture was not kept"
echo ok
