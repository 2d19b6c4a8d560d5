# Inputs that look broken but hold a trace are converted, not rejected:
# a 6 MB line, NUL bytes and invalid UTF-8 inside marker text.  The lines
# survive byte for byte (the browser shows U+FFFD where bytes are invalid).
. "$TOP/tests/lib.sh"
python3 - <<'PY'
lines = [b'# tracer: nop\n',
         b'  app-1 ( 1) [000] ...1 1.000000: tracing_mark_write: B|1|' + b'x' * 6000000 + b'\n',
         b'  app-1 ( 1) [000] ...1 1.000100: tracing_mark_write: B|1|nul\0here \xff\xfe bad\n',
         b'  app-1 ( 1) [000] ...1 1.000200: tracing_mark_write: E|1\n',
         b'  app-1 ( 1) [000] ...1 1.000300: tracing_mark_write: E|1\n']
open('odd.txt', 'wb').write(b''.join(lines))
# what the page holds: the same, with the column header Perfetto needs
cols = (b'#\n#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION\n'
        b'#              | |        |      |   ||||       |         |\n')
open('odd.want', 'wb').write(lines[0] + cols + b''.join(lines[1:]))
PY
run_st 0 --from-file odd.txt -o odd.html -q
trace_block odd.html 1 | cmp -s - odd.want || fail "odd lines not kept byte for byte"
gzip -c odd.txt >odd.gz
run_st 0 --from-file odd.gz -o odd2.html -q
trace_block odd2.html 1 | cmp -s - odd.want || fail "gzip: odd lines changed"
echo ok
