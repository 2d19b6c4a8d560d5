# --open=perfetto as Perfetto's record script does it: the browser is sent
# to https://ui.perfetto.dev/#!/?url=http://127.0.0.1:9001/NAME and the
# trace is served once from there with the CORS header for that origin.
# The "browser" here is a script that fetches the URL the way the UI does
# (Origin header, a preflight first, a wrong path too); the kept trace,
# the served bytes and the device's file must be the same.  A fetch that
# never comes ends at the timeout, a port already taken is a warning; the
# run succeeds either way.  --from-file serves a Perfetto input itself and
# any other input's page.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
command -v curl >/dev/null || skip "curl absent"

# Perfetto's port when nobody else holds it (the URL then is the real
# one), else a free one through SYSTRACE_OPEN_PORT
PORT=9001
if ! python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 9001))' 2>/dev/null
then
    PORT=$(free_port)
    export SYSTRACE_OPEN_PORT=$PORT
    echo "port 9001 busy: serving on $PORT"
fi

mkdir bin
cat >bin/fetcher <<EOS
#!/bin/sh
# a browser that loads ui.perfetto.dev, which fetches the trace
echo "\$1" >>"$T/opened.txt"
u=\${1#*url=}
curl -s -o /dev/null -w '%{http_code}\n' "http://127.0.0.1:$PORT/nope" >>"$T/codes.txt"
curl -s -X OPTIONS -D "$T/pre.txt" -o /dev/null -H 'Origin: https://ui.perfetto.dev' \
    -H 'Access-Control-Request-Method: GET' \
    -H 'Access-Control-Request-Private-Network: true' "\$u"
curl -s -D "$T/hdr.txt" -o "$T/fetched.part" -H 'Origin: https://ui.perfetto.dev' "\$u"
mv "$T/fetched.part" "$T/fetched.bin"
EOS
cat >bin/idle <<EOS
#!/bin/sh
echo "\$1" >>"$T/opened.txt"
EOS
chmod +x bin/fetcher bin/idle
# the fetcher runs on after systrace: serving ends when the last byte is
# sent, and curl may still be writing it (a loaded CI run compared a
# fetched.bin cut short); it renames its file once complete
got_fetch() {
    wait_for 10 test -e fetched.bin
}

start_adb_server
start_sim

# -- a capture: served once, fetched whole, serving ends at once
export BROWSER="$T/bin/fetcher"
start=$(date +%s)
run_st 0 --perfetto --open=perfetto -t 1 -o cap.html -e "$SIM_SERIAL" sched
[ $(( $(date +%s) - start )) -lt 60 ] || fail "serving did not end after the fetch"
assert_contains opened.txt "https://ui.perfetto.dev/#!/?url=http://127.0.0.1:$PORT/cap.perfetto-trace"
[ "$(cat codes.txt)" = 404 ] || fail "a wrong path answered $(cat codes.txt)"
tr -d '\r' <pre.txt >pre.n
grep -q "^HTTP/1.1 204" pre.n || { cat pre.n; fail "preflight not answered"; }
grep -qi "^Access-Control-Allow-Private-Network: true" pre.n || fail "no private network header"
tr -d '\r' <hdr.txt >hdr.n
grep -q "^HTTP/1.1 200" hdr.n || { cat hdr.n; fail "GET not answered 200"; }
grep -qi "^Access-Control-Allow-Origin: https://ui.perfetto.dev$" hdr.n ||
    { cat hdr.n; fail "no CORS header for ui.perfetto.dev"; }
got_fetch && cmp -s fetched.bin cap.perfetto-trace || fail "served bytes != kept trace"
assert_contains out.txt "ui.perfetto.dev fetched cap.perfetto-trace"
[ -s cap.html ] || fail "no page"
# the served trace is the device's own file (the simulator notes its CRC)
crc=$(python3 -c 'import sys, zlib; print(zlib.crc32(open(sys.argv[1], "rb").read()))' \
      cap.perfetto-trace)
[ "$(sim_state perfetto_last_crc)" = "$crc" ] ||
    fail "kept trace (crc $crc) is not the device's file (crc $(sim_state perfetto_last_crc))"
[ "$(sim_state perfetto_last_size)" = "$(wc -c <cap.perfetto-trace | tr -d ' ')" ] ||
    fail "kept trace size differs from the device's file"

# -- --from-file of a Perfetto trace serves that file, not the page
rm -f opened.txt fetched.bin
run_st 0 --from-file cap.perfetto-trace --open=perfetto -o ff.html
assert_contains opened.txt "url=http://127.0.0.1:$PORT/cap.perfetto-trace"
got_fetch && cmp -s fetched.bin cap.perfetto-trace || fail "--from-file: served bytes != input"
[ -s ff.html ] || fail "--from-file: no page"

# -- any other input: its page is served (ui.perfetto.dev reads those too)
rm -f opened.txt fetched.bin
run_st 0 --from-file ff.html --open=perfetto -o "my page.html"
assert_contains opened.txt "url=http://127.0.0.1:$PORT/my%20page.html"
got_fetch && cmp -s fetched.bin "my page.html" || fail "the page was not served"

# -- a piece: the piece is served, a page or a Perfetto trace; --split
# with --open is refused before anything is written
rm -f opened.txt fetched.bin
run_st 0 --from-file ff.html --time-range=0..0.5 --open=perfetto -o piece.html
assert_contains opened.txt "url=http://127.0.0.1:$PORT/piece.html"
got_fetch && cmp -s fetched.bin piece.html || fail "the piece was not served"
rm -f opened.txt fetched.bin
run_st 0 --from-file cap.perfetto-trace --time-range=0..0.5 --open=perfetto -o piece.pftrace
assert_contains opened.txt "url=http://127.0.0.1:$PORT/piece.pftrace"
got_fetch && cmp -s fetched.bin piece.pftrace || fail "the Perfetto piece was not served"
rm -f opened.txt
run_st 2 --from-file ff.html --split=0.2s --open=perfetto -o sp.html
assert_contains err.txt "--split writes several pieces and --open opens one"
[ ! -e opened.txt ] && ! ls sp.* 2>/dev/null || fail "--split --open: opened or wrote"

# -- SYSTRACE_OPEN=perfetto means the same
rm -f opened.txt
SYSTRACE_OPEN=perfetto run_st 0 --from-file cap.perfetto-trace -o env.html
assert_contains opened.txt "cap.perfetto-trace"

# -- never fetched: the timeout ends it, saying so; the run still succeeds
export BROWSER="$T/bin/idle"
rm -f opened.txt
SYSTRACE_OPEN_TIMEOUT=2 run_st 0 --from-file cap.perfetto-trace --open=perfetto -o t.html
assert_contains err.txt "not fetched within 2 s, stopped serving"
assert_contains err.txt "open cap.perfetto-trace in ui.perfetto.dev yourself"
python3 -c 'import socket, sys; s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)   # earlier fetches linger in TIME_WAIT
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(1)' "$PORT" ||
    fail "the port is still held after serving"

# -- the port taken: a warning at once, no wait
python3 -c 'import socket, sys, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(1); time.sleep(60)' \
    "$PORT" &
track_pid $!
wait_port "$PORT"
start=$(date +%s)
SYSTRACE_OPEN_TIMEOUT=30 run_st 0 --from-file cap.perfetto-trace --open=perfetto -o busy.html
[ $(( $(date +%s) - start )) -lt 20 ] || fail "waited although the port is taken"
assert_contains err.txt "cannot serve on 127.0.0.1:$PORT"

# -- a bad value is a usage error
run_st 2 --open=chrome --from-file cap.perfetto-trace
assert_contains err.txt "--open=chrome: unknown"
echo ok
