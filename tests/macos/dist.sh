# make dist and the Homebrew formula (issue 38): the tarball holds exactly
# the committed tree under systrace-VERSION/; the formula beside it names
# that tarball's url and sha256; and the tarball builds and installs the
# way the formula's install step does (make CC=... PREFIX=... install),
# after which the formula's own test commands pass (here on Linux; on a
# Mac Homebrew runs the same steps with its clang: nothing here runs them
# there).  Ruby checks the formula's syntax when it is installed.
. "$TOP/tests/lib.sh"
git -C "$TOP" rev-parse --verify -q HEAD >/dev/null 2>&1 || skip "not a git checkout: make dist needs one"
version=$(sed -n 's/^#define SYSTRACE_VERSION "\(.*\)"$/\1/p' "$TOP/src/cli.c")
[ -n "$version" ] || fail "no SYSTRACE_VERSION in src/cli.c"
url="https://example.invalid/systrace/systrace-$version.tar.gz"
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$TOP" -s dist DIST_DIR="$T/dist" DIST_URL="$url" \
    >dist.log 2>&1 || { cat dist.log; fail "make dist failed"; }
tgz="$T/dist/systrace-$version.tar.gz"
[ -f "$tgz" ] || { cat dist.log; fail "no $tgz"; }
assert_contains dist.log "sha256"

# the committed tree, nothing more, under one folder
tar tzf "$tgz" | grep -v '/$' | sort >have.txt
git -C "$TOP" ls-tree -r --name-only HEAD | sed "s|^|systrace-$version/|" | sort >want.txt
diff want.txt have.txt >diff.txt || { head -20 diff.txt; fail "the tarball is not the committed tree"; }
grep -q "^systrace-$version/packaging/homebrew/systrace.rb$" have.txt || fail "no formula in the tarball"

# the formula names this tarball
rb="$T/dist/systrace.rb"
sum=$(sha256sum "$tgz" | cut -d' ' -f1)
assert_eq "formula url" "  url \"$url\"" "$(grep '^  url ' "$rb")"
assert_eq "formula sha256" "  sha256 \"$sum\"" "$(grep '^  sha256 ' "$rb")"
! grep -q '@[A-Z0-9]*@' "$rb" || fail "a placeholder is left in $rb"
if command -v ruby >/dev/null 2>&1; then
    ruby -c "$rb" >ruby.txt 2>&1 || { cat ruby.txt; fail "the formula is not valid Ruby"; }
fi

# built from the tarball as the formula's install step does it (without
# optimisation: what is checked is that it builds and installs; in its own
# build folder, not the one tests/run names in BUILD)
tar xzf "$tgz"
cd "systrace-$version" || fail "no systrace-$version/"
prefix="$T/prefix"
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u BUILD -u BIN make -s -j"${J:-2}" CC=cc OPT=-O0 PREFIX="$prefix" \
    BASHCOMPDIR="$prefix/etc/bash_completion.d" install >../build.log 2>&1 ||
    { tail -n 30 ../build.log; fail "the tarball does not build and install"; }
[ -f build/src/main.o ] && [ -x systrace ] || fail "the tarball's build is not in its own folder"
cd "$T" || exit 1
[ -x "$prefix/bin/systrace" ] || fail "no bin/systrace installed"
[ -f "$prefix/share/man/man1/systrace.1" ] || fail "no man page installed"
[ -f "$prefix/etc/bash_completion.d/systrace" ] || fail "no bash completion installed"
# the formula's test block, as commands
"$prefix/bin/systrace" --version >v.txt 2>&1 || fail "--version failed"
assert_contains v.txt "$version"
awk '/<<~EOS/ { on = 1; next } /^    EOS/ { on = 0 } on { sub(/^      /, ""); print }' "$rb" >t.txt
assert_contains t.txt "tracing_mark_write: B|42|work"
"$prefix/bin/systrace" --from-file t.txt -j -o t.json >conv.txt 2>&1 || { cat conv.txt; fail "the formula's test conversion failed"; }
assert_contains t.json "tracing_mark_write"
echo ok
