# systrace --update-viewer against a local server (tests/tools/viewer_server.py)
# standing in for AOSP's gitiles: the pinned checksum table rejects Debian's
# viewer served under the pinned path; with the test-only extra sum the
# whole path runs (download, base64, verify, atomic store, later lookup);
# truncated, cut, corrupted, 404, slow, proxied and unreachable downloads
# each give their own message and never touch a good cached copy.
. "$TOP/tests/lib.sh"
DEB=/usr/share/go-1.19/src/cmd/trace/static
[ -f "$DEB/trace_viewer_full.html" ] || skip "Debian's golang-1.19-src viewer absent"
unset http_proxy https_proxy HTTPS_PROXY all_proxy ALL_PROXY no_proxy NO_PROXY \
    SYSTRACE_VIEWER SYSTRACE_VIEWER_URL SYSTRACE_TEST_VIEWER_SHA256
export XDG_CACHE_HOME="$T/cache"
C="$XDG_CACHE_HOME/systrace"

# the served viewer: Debian's plus a marker, so a page shows where its
# viewer came from
cp "$DEB/trace_viewer_full.html" marked.html
printf '<!-- systrace test viewer copy -->\n' >>marked.html
MARKED_SUM=$(sha256sum marked.html | cut -d' ' -f1)
PIN_POLY=3858273ab39b299e7c2227f0830534afafaabf4a572c9ea73c2076fecbd8978c

python3 "$TOP/tests/tools/viewer_server.py" port.txt requests.log marked.html \
    "$DEB/webcomponents.min.js" "$DEB/trace_viewer_full.html" 2>server.err &
track_pid $!
for _ in $(seq 100); do [ -s port.txt ] && break; sleep 0.05; done
PORT=$(cat port.txt) || fail "server did not start"
URL="http://127.0.0.1:$PORT"

cache_state() { (cd "$C" 2>/dev/null && ls -A | sort && sha256sum ./* 2>/dev/null); }

# 1. the pinned table rejects anything but the AOSP file: Debian's viewer
#    (a good viewer, but not the pinned one), and the marked copy
run_st 1 --update-viewer --viewer-url "$URL/alt"
assert_contains err.txt "systrace_trace_viewer.html?format=TEXT: got $(stat -c %s "$DEB/trace_viewer_full.html") bytes with sha256 $(sha256sum "$DEB/trace_viewer_full.html" | cut -d' ' -f1)"
assert_contains err.txt "expected the pinned file (2624705 bytes, sha256 1e47680c9779f29f2f1c0179c47a69cecadfd6653f15796aa9148c195a5647b0)"
assert_contains err.txt "nothing was stored"
run_st 1 --update-viewer --viewer-url "$URL/good"
assert_contains err.txt "expected the pinned file (2624705 bytes, sha256 1e47680c9779f29f2f1c0179c47a69cecadfd6653f15796aa9148c195a5647b0)"
assert_contains err.txt "nothing was stored"
[ -z "$(cache_state)" ] || fail "a rejected download left files: $(cache_state)"

# 2. with the test sum: downloaded, verified, stored; the polyfill matched
#    its real pinned sum
SYSTRACE_TEST_VIEWER_SHA256=$MARKED_SUM run_st 0 --update-viewer --viewer-url "$URL/good"
assert_contains out.txt "Verified (sha256) and stored:"
assert_contains out.txt "$C/systrace_trace_viewer.html"
cmp -s "$C/systrace_trace_viewer.html" marked.html || fail "stored viewer differs"
assert_eq "stored polyfill sum" "$PIN_POLY" "$(sha256sum "$C/webcomponents.min.js" | cut -d' ' -f1)"
assert_eq "cache files" "systrace_trace_viewer.html webcomponents.min.js" \
    "$(ls -A "$C" | sort | tr '\n' ' ' | sed 's/ $//')"
grep -q "GET /good/catapult/systrace/systrace/systrace_trace_viewer.html?format=TEXT" \
    requests.log || fail "request path: $(cat requests.log)"
GOOD=$(cache_state)

# the cache is where conversions now find the viewer (before Debian's)
SYSTRACE_TEST_VIEWER_SHA256=$MARKED_SUM run_st 0 --from-file "$TOP/tests/data/sample.txt" -o a.html
assert_contains a.html "<!-- systrace test viewer copy -->"
# without the test sum the cached file is not trusted: skipped, said so
run_st 0 --from-file "$TOP/tests/data/sample.txt" -o b.html
assert_contains err.txt "$C/systrace_trace_viewer.html: checksum does not match a known viewer; skipped"
assert_not_contains b.html "<!-- systrace test viewer copy -->"

# 3. bad downloads: each its own message, the good copy untouched
export SYSTRACE_TEST_VIEWER_SHA256=$MARKED_SUM
bad() {     # variant, expected text
    run_st 1 --update-viewer --viewer-url "$URL/$1" --timeout 2
    assert_contains err.txt "$2"
    assert_contains err.txt "a cached copy, if any, is unchanged"
    [ "$(cache_state)" = "$GOOD" ] || fail "$1 changed the cache: $(cache_state)"
}
bad badsum "or sha256 $MARKED_SUM from \$SYSTRACE_TEST_VIEWER_SHA256"
bad short "got $(( $(stat -c %s marked.html) - 3 )) bytes"
bad cut "is cut short (a partial download?)"
bad trunc "partial download"
bad 404 "HTTP status 404"
bad slow "timed out: no data for 2 s"
CLOSED=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
bad "x" "HTTP status 404"
run_st 1 --update-viewer --viewer-url "http://127.0.0.1:$CLOSED/good"
assert_contains err.txt "cannot connect to 127.0.0.1"
run_st 1 --update-viewer --viewer-url "ftp://127.0.0.1/good"
assert_contains err.txt "unsupported URL"
[ "$(cache_state)" = "$GOOD" ] || fail "cache changed"

# 4. a raw mirror, a redirect, $SYSTRACE_VIEWER_URL
rm -rf "$C"
run_st 0 --update-viewer --viewer-url "$URL/raw/"
[ "$(cache_state)" = "$GOOD" ] || fail "raw mirror: $(cache_state)"
rm -rf "$C"
SYSTRACE_VIEWER_URL="$URL/redirect" run_st 0 --update-viewer -q
[ "$(cache_state)" = "$GOOD" ] || fail "redirect: $(cache_state)"
[ ! -s out.txt ] || fail "-q printed: $(cat out.txt)"

# 5. proxies from the environment: used, and named when they fail
rm -rf "$C"
: >requests.log
http_proxy="$URL" run_st 0 --update-viewer --viewer-url "http://viewer.systrace.invalid/good"
grep -q "GET http://viewer.systrace.invalid/good/" requests.log ||
    fail "the proxy was not used: $(cat requests.log)"
[ "$(cache_state)" = "$GOOD" ] || fail "proxied download"
http_proxy="http://127.0.0.1:$CLOSED" run_st 1 --update-viewer \
    --viewer-url "http://viewer.systrace.invalid/good"
assert_contains err.txt "cannot connect to the proxy http://127.0.0.1:$CLOSED (from \$http_proxy)"
# no_proxy exempts the host
no_proxy=127.0.0.1 http_proxy="http://127.0.0.1:$CLOSED" run_st 0 --update-viewer \
    --viewer-url "$URL/good"

# 6. no cache directory at all
env -u XDG_CACHE_HOME -u HOME "$SYSTRACE" --update-viewer --viewer-url "$URL/good" \
    >out.txt 2>err.txt && fail "no HOME: succeeded"
assert_contains err.txt "no cache directory: set HOME or XDG_CACHE_HOME"
echo ok
