# --help and the man page are made from one option table (src/optdefs.c):
# every option in it (but the hidden deprecated spellings) appears in
# --help, in the rendered man page, and in the bash completion; and the
# parser accepts each one, so none is documented but unknown.
. "$TOP/tests/lib.sh"
MAN="$BUILD/systrace.1"
[ -f "$MAN" ] || fail "$MAN not built (make builds it)"
python3 - "$TOP/src/optdefs.c" >opts.txt <<'PY'
import re, sys
src = open(sys.argv[1]).read()
for m in re.finditer(r'\{\s*"([a-z-]+)"\s*,\s*(\'.\'|0)\s*,\s*("[^"]*"|NULL)\s*,\s*[A-Za-z_\']+\s*,'
                     r'\s*SEC_[A-Z]+\s*,\s*([A-Z_]+|0)', src):
    name, short, arg, flags = m.group(1), m.group(2), m.group(3), m.group(4)
    optional = 'OPTARG' in flags    # --name[=ARG]: parsed alone, like a flag
    print(name, short.strip("'") if short != '0' else '-',
          'arg' if arg != 'NULL' and not optional else 'flag',
          'hidden' if 'HIDDEN' in flags else 'shown')
PY
n=$(grep -c shown opts.txt)
[ "$n" -ge 30 ] || { cat opts.txt; fail "only $n options read from the table"; }
"$SYSTRACE" --help >help.txt || fail "--help failed"
MANWIDTH=200 man -l "$MAN" >man.txt 2>/dev/null || fail "man -l $MAN"
bash -c '. "$1"; COMP_WORDS=("$2" -); COMP_CWORD=1; _systrace; printf "%s\n" "${COMPREPLY[@]}"' _ \
    "$TOP/scripts/completion/systrace.bash" "$SYSTRACE" >comp.txt
while read -r name short kind vis; do
    if [ "$vis" = hidden ]; then
        grep -q -- "--$name" help.txt && fail "hidden --$name listed in --help"
        continue
    fi
    grep -qE -- "(^|[ ,])--$name([ =[]|\$)" help.txt || fail "--$name missing from --help"
    grep -qE -- "--$name([ =[]|\$)" man.txt || fail "--$name missing from the man page"
    grep -qx -- "--$name" comp.txt || fail "--$name missing from the bash completion"
    if [ "$short" != - ]; then
        grep -qE -- "(^|  )-$short[ ,]" help.txt || fail "-$short missing from --help"
        grep -qE -- "(^| )-$short[ ,]" man.txt || fail "-$short missing from the man page"
    fi
    # the parser knows it (a usage error names the option as unknown otherwise)
    if [ "$kind" = arg ]; then "$SYSTRACE" "--$name" >/dev/null 2>err.txt </dev/null
    else "$SYSTRACE" "--$name" --no-such-opt-xyz >/dev/null 2>err.txt </dev/null; fi
    grep -q "no such option: --$name" err.txt && fail "--$name documented but not parsed"
done <opts.txt
# the man page has what the issue asked for
for s in EXAMPLES "EXIT STATUS" ENVIRONMENT; do
    grep -q "^$s" man.txt || fail "man page lacks $s"
done
echo ok
