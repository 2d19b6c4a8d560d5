# RSA auth against the simulator: an unknown key is refused, the public
# key goes out, the user "taps Allow", and next time the signature alone
# is enough.  Nobody tapping ends in ST_EUNAUTH saying what to do.
# $ADB_VENDOR_KEYS keys are tried after the user key.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
. "$TOP/tests/direct-env.sh"
no_server
: >keys
dsim_start --auth-keys "$T/keys" --auth-accept 200
dtool -s "$DSIM_SERIAL" info >info.txt 2>err.txt || { cat err.txt; fail "refused then accepted"; }
assert_contains info.txt "model SystraceSim"
assert_contains err.txt "Allow USB debugging"
[ -f "$HOME/.android/adbkey" ] || fail "no key generated"
[ "$(stat -c %a "$HOME/.android/adbkey")" = 600 ] || fail "generated key not 0600"
head -1 "$HOME/.android/adbkey" | grep -q "BEGIN PRIVATE KEY" || fail "not PKCS#8"
tr '\n' ' ' <"$DSIM_LOG" | grep -q "auth token auth signature refused auth token auth pubkey auth accepted" ||
    { cat "$DSIM_LOG"; fail "auth sequence"; }
cut -d' ' -f1 "$HOME/.android/adbkey.pub" >pub.b64
cut -d' ' -f1 keys | cmp -s - pub.b64 || fail "device stored a different key"
: >"$DSIM_LOG"
dtool -s "$DSIM_SERIAL" run echo again >out.txt 2>err.txt || { cat err.txt; fail second; }
assert_contains out.txt again
grep -qx "auth signature ok" "$DSIM_LOG" || fail "second connection not by signature"
grep -q pubkey "$DSIM_LOG" && fail "public key sent again"
assert_not_contains err.txt "Allow USB"

# nobody accepts: a clear error after the wait
dsim_start --auth-keys "$T/keys2"
: >keys2
dtool -s "$DSIM_SERIAL" -w 1000 info >/dev/null 2>err.txt && fail "accepted without a tap"
assert_contains err.txt "ST_EUNAUTH"
assert_contains err.txt "accept the \"Allow USB debugging?\" prompt"

# a vendor key the device trusts, after the (unknown) user key
mkdir vk
dtool keygen "$T/vk/team.adb_key" || fail keygen
cp "$T/vk/team.adb_key.pub" keys3
dsim_start --auth-keys "$T/keys3"
ADB_VENDOR_KEYS="$T/vk" dtool -s "$DSIM_SERIAL" info >/dev/null 2>err.txt ||
    { cat err.txt; fail "vendor key"; }
tr '\n' ' ' <"$DSIM_LOG" | grep -q "auth signature refused auth token auth signature ok" ||
    { cat "$DSIM_LOG"; fail "vendor key not tried second"; }
echo ok
