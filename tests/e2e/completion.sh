# Bash completion (scripts/completion/systrace.bash): options from --help,
# values of options with a fixed set, files after options that take one,
# and categories asked of the connected device (through the real adb
# server and the simulator), with and without bash-completion's helpers.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
command -v bash >/dev/null || skip "bash absent"
COMP=$TOP/scripts/completion/systrace.bash

# complete WORD...: the candidates for the last word, one per line
complete_words() {
    bash -c '
        [ -n "${WITH_BC:-}" ] && [ -f /usr/share/bash-completion/bash_completion ] &&
            . /usr/share/bash-completion/bash_completion
        . "$1"; shift
        COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
        COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
        _systrace
        [ ${#COMPREPLY[@]} -eq 0 ] || printf "%s\n" "${COMPREPLY[@]}"' _ "$COMP" "$SYSTRACE" "$@"
}
has() { grep -qx -- "$2" "$1" || { echo "--- candidates:"; cat "$1"; fail "$3"; }; }

for bc in "" 1; do
    export WITH_BC=$bc
    complete_words --tr >c.txt; has c.txt --transport "options (bash_completion=$bc)"
    has c.txt --trace-events "options"
    complete_words -- >c.txt; has c.txt --from-file "all long options"
    complete_words --target "" >c.txt; has c.txt linux "--target values"
    complete_words --preset "" >c.txt; has c.txt frames "--preset values"
    has c.txt startup "--preset values"
    complete_words --preset=po >c.txt; has c.txt --preset=power "--preset= values"
    complete_words --transport=d >c.txt; has c.txt --transport=direct "--transport= values"
    complete_words --open=p >c.txt; has c.txt --open=perfetto "--open= values"
    mkdir -p dir; : >dir/mytrace.txt
    complete_words -o dir/my >c.txt; has c.txt dir/mytrace.txt "file after -o"
    complete_words --from-file dir/m >c.txt; has c.txt dir/mytrace.txt "file after --from-file"
    # no device: no category candidates, and no error output, quickly
    ANDROID_ADB_SERVER_PORT=1 complete_words -t 3 sch >c.txt 2>e.txt
    [ ! -s c.txt ] || fail "categories without a device: $(cat c.txt)"
done

# host categories with --target=linux, where this machine can list them
if "$SYSTRACE" --target=linux -l >/dev/null 2>&1; then
    complete_words --target=linux fr >c.txt; has c.txt freq "linux categories"
    complete_words --target linux sch >c.txt; has c.txt sched "linux categories"
fi

start_adb_server
start_sim
complete_words -t 3 sch >c.txt; has c.txt sched "device categories"
complete_words -t 3 g >c.txt; has c.txt gfx "device categories"
complete_words --atrace-categories=vi >c.txt; has c.txt --atrace-categories=view "--atrace-categories="
complete_words -e "$SIM_SERIAL" bin >c.txt; has c.txt binder_driver "categories of the -e device"
# serials after -e, from the adb server
for bc in "" 1; do
    WITH_BC=$bc complete_words -e "" >c.txt; has c.txt "$SIM_SERIAL" "serials after -e (bc=$bc)"
    WITH_BC=$bc complete_words -e 127 >c.txt; has c.txt "$SIM_SERIAL" "serials after -e 127"
done
# a second device: categories of the one named on the line
start_sim --sdk 21
complete_words -e "$SIM_SERIAL" d >c.txt; has c.txt dalvik "categories with two devices and -e"
echo ok
