# Trace text can never break out of its script block: </script> and <!--
# inside marker names are escaped in the file, and the payload as the
# viewer reads it (escape undone) is the original text.
. "$TOP/tests/lib.sh"
cat >evil.txt <<'TXT'
# tracer: nop
#
#           TASK-PID    CPU#  TIMESTAMP  FUNCTION
  app-7 [000] 1.000000: tracing_mark_write: B|7|</script><script>alert(1)</script>
  app-7 [000] 1.000100: tracing_mark_write: B|7|<!--<script>
  app-7 [000] 1.000200: tracing_mark_write: B|7|</SCRIPT >back\slash<\/script
  app-7 [000] 1.000300: tracing_mark_write: E|7
TXT
run_st 0 --from-file evil.txt -o out.html -q
body=$(sed -n '/<!-- BEGIN TRACE -->/,/<!-- END TRACE -->/p' out.html)
n=$(printf '%s\n' "$body" | grep -ic '</script')
[ "$n" -eq 1 ] || fail "found $n closing tags in the trace section, expected 1"
printf '%s\n' "$body" | grep -q '<!--<' && fail "unescaped <!-- in the trace section"
trace_block out.html 1 | cmp -s - evil.txt || fail "payload not restored exactly"
echo ok
