#!/usr/bin/env python3
"""Loads a trace-event JSON file into the classic trace viewer (catapult,
from Debian's golang-1.19-src) in headless Chromium and prints what the
viewer's JSON importer made of it, as JSON: slices, threads, top-level
slices, maximum nesting depth, slices with thread (CPU) duration, import
warnings, thread names.  Exit 77 if Chromium or the viewer is missing.

    viewercheck.py FILE.json
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

VIEWER = "/usr/share/go-1.19/src/cmd/trace/static"

PAGE = """<!DOCTYPE html><html><head><script>%(wc)s</script>
%(tv)s
</head><body><pre id="out">pending</pre>
<script>
const data = %(data)s;
function run() {
  try {
    const m = new tr.Model();
    const imp = new tr.importer.Import(m, new tr.importer.ImportOptions());
    imp.importTraces([JSON.stringify(data)]);
    let r = {slices: 0, threads: 0, top: 0, max_depth: 0, cpu: 0, names: []};
    for (const p of Object.values(m.processes)) {
      for (const t of Object.values(p.threads)) {
        r.threads++; r.names.push(t.name);
        r.slices += t.sliceGroup.slices.length;
        r.top += t.sliceGroup.topLevelSlices.length;
        for (const s of t.sliceGroup.slices) {
          if (s.cpuDuration !== undefined) r.cpu++;
          let d = 1;
          for (let q = s.parentSlice; q; q = q.parentSlice) d++;
          if (d > r.max_depth) r.max_depth = d;
        }
      }
    }
    r.warnings = m.importWarnings.map(w => w.message);
    document.getElementById('out').textContent = JSON.stringify(r);
  } catch (e) {
    document.getElementById('out').textContent = JSON.stringify({error: String(e)});
  }
}
window.addEventListener('WebComponentsReady', run);
</script></body></html>"""


def main():
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if not browser or not os.path.exists(VIEWER + "/trace_viewer_full.html"):
        print("chromium or the trace viewer is not installed")
        sys.exit(77)
    with open(sys.argv[1], encoding="utf-8") as f:
        data = f.read()
    page = PAGE % {
        "wc": open(VIEWER + "/webcomponents.min.js").read(),
        "tv": open(VIEWER + "/trace_viewer_full.html").read(),
        "data": data.replace("</", "<\\/"),
    }
    # --dump-dom can fire before the import on a loaded machine: the page
    # then still says "pending", and a fresh attempt settles it.
    m = None
    for attempt in range(3):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "check.html")
            with open(path, "w", encoding="utf-8") as f:
                f.write(page)
            out = subprocess.run(
                [browser, "--headless", "--no-sandbox", "--disable-gpu",
                 "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync",
                 "--user-data-dir=" + os.path.join(d, "profile"),
                 "--virtual-time-budget=60000", "--dump-dom", path],
                capture_output=True, text=True, timeout=300).stdout
        m = re.search(r'<pre id="out">([^<]*)</pre>', out)
        if m and m.group(1) != "pending":
            break
        print("viewercheck: import not finished (attempt %d)" % (attempt + 1),
              file=sys.stderr)
    if not m or m.group(1) == "pending":
        sys.exit("viewer did not finish importing")
    text = m.group(1).replace("&quot;", '"').replace("&amp;", "&") \
        .replace("&lt;", "<").replace("&gt;", ">")
    print(text)
    if "error" in json.loads(text):
        sys.exit(1)


if __name__ == "__main__":
    main()
