# make install puts the binary, the man page, the bash completion and the
# docs under DESTDIR/PREFIX; `man -l` renders the installed page; the
# installed completion completes options; make uninstall removes exactly
# what install put there.
. "$TOP/tests/lib.sh"
command -v make >/dev/null || skip "make absent"
D=$T/dest
make -s -C "$TOP" install DESTDIR="$D" PREFIX=/usr/local BUILD="$BUILD" BIN="$SYSTRACE" \
    >make.txt 2>&1 || { cat make.txt; fail "make install"; }
(cd "$D" && find . -type f | sort) >files.txt
cat files.txt
for f in ./usr/local/bin/systrace ./usr/local/share/man/man1/systrace.1 \
         ./usr/local/share/bash-completion/completions/systrace \
         ./usr/local/share/doc/systrace/README.md ./usr/local/share/doc/systrace/LICENSE \
         ./usr/local/share/doc/systrace/docs/linux.md; do
    grep -qxF "$f" files.txt || fail "make install did not install $f"
done
n=$(grep -c . files.txt)
want=$(( 5 + $(ls "$TOP"/docs/*.md | wc -l) ))
assert_eq "installed files" "$want" "$n"
[ -x "$D/usr/local/bin/systrace" ] || fail "binary not executable"
assert_eq "man page mode" 644 "$(stat -c %a "$D/usr/local/share/man/man1/systrace.1")"
"$D/usr/local/bin/systrace" --version >v.txt || fail "installed binary does not run"

# the installed man page names the installed docs, not the source tree's
m=$D/usr/local/share/man/man1/systrace.1
grep -q '/usr/local/share/doc/systrace/docs/direct\\-transport.md' "$m" ||
    fail "the man page does not name the installed docs/direct-transport.md"
! grep -q '(docs/' "$m" || fail "the man page names docs/ of the source tree"

# the installed man page renders, and is the one `man systrace` finds there
if command -v man >/dev/null; then
    MANWIDTH=80 man -l "$D/usr/local/share/man/man1/systrace.1" >man.txt 2>manerr.txt ||
        { cat manerr.txt; fail "man -l"; }
    grep -q 'systrace' man.txt || fail "man page renders empty"
    grep -q -- '--from-file' man.txt || fail "man page lacks --from-file"
    MANPATH="$D/usr/local/share/man" MANWIDTH=80 man systrace >man2.txt 2>/dev/null ||
        fail "man systrace does not find the installed page"
    cmp -s man.txt man2.txt || fail "man systrace shows another page"
fi

# the installed completion file completes options in bash
if command -v bash >/dev/null; then
    bash -c '. "$1"; COMP_WORDS=("$2" --tar); COMP_CWORD=1; _systrace
             printf "%s\n" "${COMPREPLY[@]}"' _ \
        "$D/usr/local/share/bash-completion/completions/systrace" \
        "$D/usr/local/bin/systrace" >comp.txt || fail "completion failed"
    grep -qx -- '--target' comp.txt || { cat comp.txt; fail "installed completion"; }
fi

make -s -C "$TOP" uninstall DESTDIR="$D" PREFIX=/usr/local BUILD="$BUILD" BIN="$SYSTRACE" \
    >make.txt 2>&1 || { cat make.txt; fail "make uninstall"; }
left=$(cd "$D" && find . -type f)
[ -z "$left" ] || fail "make uninstall left: $left"
[ ! -d "$D/usr/local/share/doc/systrace" ] || fail "doc dir left"
# uninstall removes only what install put there
mkdir -p "$D/usr/local/bin"; echo keep >"$D/usr/local/bin/other"
make -s -C "$TOP" uninstall DESTDIR="$D" PREFIX=/usr/local BUILD="$BUILD" BIN="$SYSTRACE" \
    >/dev/null 2>&1
[ -f "$D/usr/local/bin/other" ] || fail "uninstall removed a file it did not install"
echo ok
