# A page built with the default viewer (Debian's golang-1.19-src copy) opens
# in current headless Chromium without the viewer's yellow "Trace Viewer is
# running with WebComponentsV0 polyfill ..." bar (issue 11 item 16).  The
# same page with our one-line switch-off removed from the prefix shows the
# bar, so the DOM check can fail.  Screenshots are kept in
# $BUILD/screenshots/polyfill-banner-1.png (ours) and -2.png (without it).
. "$TOP/tests/lib.sh"
need_browser
V=/usr/share/go-1.19/src/cmd/trace/static/trace_viewer_full.html
[ -f "$V" ] || skip "Debian's trace viewer absent (golang-1.19-src)"

# the default lookup: no --viewer, no $SYSTRACE_VIEWER, an empty cache
mkdir cache
env -u SYSTRACE_VIEWER XDG_CACHE_HOME="$T/cache" \
    "$SYSTRACE" --from-file "$TOP/tests/data/sample.txt" -o page.html -q ||
    fail "conversion"
# Debian's viewer is in the page, byte for byte
python3 -c "
import sys
sys.exit(open(sys.argv[1], 'rb').read() not in open('page.html', 'rb').read())" "$V" ||
    fail "the page does not hold Debian's viewer"

grep -c 'view.warnPolyfill = function() {};' page.html >n.txt
assert_eq "switch-off lines in the page" 1 "$(cat n.txt)"
grep -vF 'view.warnPolyfill = function() {};' page.html >control.html

mkdir -p "$BUILD/screenshots"
browser_check --screenshot "$BUILD/screenshots/polyfill-banner.png" \
    page.html --expect ok=true polyfillBanner=false processes=1 slices=3 \
        pageErrors= \
    control.html --expect ok=true polyfillBanner=true slices=3
cat browser.json
echo ok
