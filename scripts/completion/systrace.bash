# bash completion for systrace (installed as
# $(PREFIX)/share/bash-completion/completions/systrace by make install).
#
# Options come from `systrace --help` of the binary being completed, so they
# follow the installed version.  Categories come from the connected device
# (`systrace -l`, or `--target=linux -l` when that target is on the line),
# asked quietly with a short timeout; nothing is completed when no device
# answers.  Files are completed where an option takes one; device serials
# after -e, asked of the adb server.

_systrace_options()
{
    "$1" --help 2>/dev/null |
        grep -oE -- '(^|[[:space:],])--?[a-zA-Z][a-zA-Z-]*' |
        sed 's/^[[:space:],]*//' | sort -u
}

# Category names printed by `systrace -l`: "  name - Description" (atrace)
# or "name   :  Description" (linux); -e/--serial and --target carried over.
_systrace_categories()
{
    local prog=$1; shift
    timeout "${SYSTRACE_COMPLETION_TIMEOUT:-3}" "$prog" "$@" -l </dev/null 2>/dev/null |
        sed -n '/^Presets/q; s/^[[:space:]]*\([A-Za-z0-9_./]\{1,\}\)[[:space:]]\{1,\}[-:][[:space:]].*/\1/p'
}

# Serials of the devices the adb server lists as "device", asked of the
# server itself (host:devices over bash's /dev/tcp, as systrace finds it:
# ADB_SERVER_SOCKET=tcp:HOST:PORT, ANDROID_ADB_SERVER_ADDRESS/_PORT), so
# no adb binary is needed; nothing when no server answers in time.
_systrace_serials()
{
    local host=${ANDROID_ADB_SERVER_ADDRESS:-127.0.0.1} port=${ANDROID_ADB_SERVER_PORT:-5037}
    case ${ADB_SERVER_SOCKET:-} in
        tcp:*:*) host=${ADB_SERVER_SOCKET#tcp:}; host=${host%:*}; port=${ADB_SERVER_SOCKET##*:} ;;
        tcp:*) port=${ADB_SERVER_SOCKET#tcp:} ;;
    esac
    timeout "${SYSTRACE_COMPLETION_TIMEOUT:-3}" bash -c '
        exec 3<>"/dev/tcp/$1/$2" || exit 1
        printf "000chost:devices" >&3
        cat <&3' _ "$host" "$port" 2>/dev/null |
        sed -n '1s/^OKAY[0-9a-fA-F]\{4\}//; s/^\([^[:space:]]\{1,\}\)[[:space:]]\{1,\}device$/\1/p'
}

# Preset names from --help's "--preset=frames|startup|..." line.
_systrace_presets()
{
    "$1" --help 2>/dev/null | grep -oE -- '--preset=[a-z|]+' | head -n 1 |
        sed 's/^--preset=//' | tr '|' '\n'
}

_systrace()
{
    local cur prev words cword
    if declare -F _init_completion >/dev/null 2>&1; then
        _init_completion -s || return
    else
        cur=${COMP_WORDS[COMP_CWORD]}
        prev=${COMP_WORDS[COMP_CWORD-1]}
        words=("${COMP_WORDS[@]}")
        cword=$COMP_CWORD
    fi
    local prog=${words[0]}
    command -v "$prog" >/dev/null 2>&1 || prog=systrace

    case $prev in
        -o | --from-file | --trace-events | --summary | --rows | --viewer | --method-profile | \
        --call-graph | --method-json | --asset-dir | --output | --perfetto-config)
            COMPREPLY=($(compgen -f -- "$cur"))
            compopt -o filenames 2>/dev/null
            return ;;
        --target) COMPREPLY=($(compgen -W 'android linux' -- "$cur")); return ;;
        --transport) COMPREPLY=($(compgen -W 'auto server direct' -- "$cur")); return ;;
        --method-profile-format) COMPREPLY=($(compgen -W 'text tsv' -- "$cur")); return ;;
        --method-clock) COMPREPLY=($(compgen -W 'default cpu wall' -- "$cur")); return ;;
        --preset) COMPREPLY=($(compgen -W "$(_systrace_presets "$prog")" -- "$cur")); return ;;
        -e | --serial)
            COMPREPLY=($(compgen -W "$(_systrace_serials)" -- "$cur"))
            return ;;
        -t | --time | -b | --buf-size | -k | --ktrace | -a | --app | \
        --timeout | --collection-timeout | --app-profile | --app-profile-sampling | \
        --viewer-url | --call-graph-threshold | -J)
            return ;;
    esac

    case $cur in
        --*=*)
            local opt=${cur%%=*} val=${cur#*=}
            case $opt in
                --target) COMPREPLY=($(compgen -P "$opt=" -W 'android linux' -- "$val")) ;;
                --transport) COMPREPLY=($(compgen -P "$opt=" -W 'auto server direct' -- "$val")) ;;
                --open) COMPREPLY=($(compgen -P "$opt=" -W 'perfetto' -- "$val")) ;;
                --preset)
                    COMPREPLY=($(compgen -P "$opt=" -W "$(_systrace_presets "$prog")" -- "$val")) ;;
                --method-profile-format)
                    COMPREPLY=($(compgen -P "$opt=" -W 'text tsv' -- "$val")) ;;
                --method-clock) COMPREPLY=($(compgen -P "$opt=" -W 'default cpu wall' -- "$val")) ;;
                --serial) COMPREPLY=($(compgen -P "$opt=" -W "$(_systrace_serials)" -- "$val")) ;;
                --from-file | --trace-events | --summary | --rows | --viewer | --method-profile | \
                --call-graph | --method-json | --output | --perfetto-config)
                    COMPREPLY=($(compgen -P "$opt=" -f -- "$val")) ;;
                --atrace-categories | --ftrace-categories)
                    COMPREPLY=($(compgen -P "$opt=" -W "$(_systrace_categories "$prog")" -- "$val")) ;;
            esac
            return ;;
        -*)
            COMPREPLY=($(compgen -W "$(_systrace_options "$prog")" -- "$cur"))
            return ;;
    esac

    # A positional word: a category, asked of the same target and device.
    local -a pass=()
    local i w
    for ((i = 1; i < cword; i++)); do
        w=${words[i]}
        case $w in
            --target=* | --serial=* | --transport=*) pass+=("$w") ;;
            --target | -e | --serial | --transport) pass+=("$w" "${words[i+1]}") ;;
            --from-file | --from-file=*) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        esac
    done
    COMPREPLY=($(compgen -W "$(_systrace_categories "$prog" "${pass[@]}")" -- "$cur"))
}
complete -F _systrace systrace
