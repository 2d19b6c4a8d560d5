#!/usr/bin/env node
// Opens systrace HTML pages in headless Debian chromium and prints, per file,
// one JSON line saying what catapult's trace viewer imported.
//
//   node check.mjs FILE [--expect K=V|K~TEXT ...] [FILE [--expect ...]] ...
//                  [--screenshot OUT.png] [--timeout-ms N]
//
// A FILE not starting with '<' (ftrace text, JSON trace) is first wrapped into
// a page with mkpage.py. It waits until the page's import finished or an
// "Import error" overlay appeared; pages from catapult's own systrace (no
// window.systraceLoad) are recognised by their timeline view and overlay.
// --expect applies to the FILE before it: K=V compares the field's value
// (arrays joined with ','), K~TEXT wants TEXT in it (for arrays: in an element).
// Exit: 0 evaluated (import failures included: the caller asserts), 1 an
// --expect did not hold (diff on stderr), 2 harness failure.
// Several files share one browser: the viewer parse dominates a check.
import {chromium} from 'playwright-core';
import {LAUNCH_ARGS} from './launch.mjs';
import {execFileSync} from 'node:child_process';
import {mkdtempSync, openSync, readSync, closeSync, rmSync, existsSync, readFileSync}
    from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {pathToFileURL, fileURLToPath} from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const USAGE = 'usage: check.mjs FILE [--expect K=V ...] ... ' +
    '[--screenshot OUT.png] [--timeout-ms N]';
const NAME_CAP = 100;   // keeps corpus-sized name lists out of the JSON line

function die(msg) {
  process.stderr.write(`check.mjs: ${msg}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const opts = {files: [], screenshot: null, timeoutMs: 120000};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--screenshot' || a === '--timeout-ms') {
      if (i + 1 >= argv.length) die(`${a} needs a value\n${USAGE}`);
      if (a === '--screenshot') opts.screenshot = argv[++i];
      else opts.timeoutMs = Number(argv[++i]);
    } else if (a === '--expect') {
      const file = opts.files[opts.files.length - 1];
      if (!file) die(`--expect must follow a FILE\n${USAGE}`);
      while (i + 1 < argv.length && /^[A-Za-z]\w*[=~]/.test(argv[i + 1])) {
        const m = /^(\w+)([=~])(.*)$/s.exec(argv[++i]);
        file.expect.push({key: m[1], op: m[2], want: m[3]});
      }
    } else if (a.startsWith('--')) {
      die(`unknown option ${a}\n${USAGE}`);
    } else {
      opts.files.push({path: a, expect: []});
    }
  }
  if (!opts.files.length) die(USAGE);
  for (const f of opts.files) if (!existsSync(f.path)) die(`${f.path}: no such file`);
  if (!(opts.timeoutMs > 0)) die('--timeout-ms wants a positive number');
  return opts;
}

function firstByte(file) {
  const fd = openSync(file, 'r');
  const buf = Buffer.alloc(1);
  const n = readSync(fd, buf, 0, 1, 0);
  closeSync(fd);
  return n ? buf.toString() : '';
}

// Returns the page to open: the file itself, or a page wrapping it.
function pageFor(file, workDir, index) {
  if (firstByte(file) === '<') return file;
  const out = path.join(workDir, `wrapped-${index}.html`);
  execFileSync('python3', [path.join(HERE, 'mkpage.py'), out, file],
               {stdio: ['ignore', 'ignore', 'inherit']});
  return out;
}

// Runs in the page: has the import ended, one way or the other?
function importEnded() {
  const overlayTitle = (o) => {
    const t = o.shadowRoot && o.shadowRoot.querySelector('title') ||
              o.querySelector('title');
    return t ? t.textContent : '';
  };
  for (const o of Array.from(document.querySelectorAll('.overlay'))) {
    if (overlayTitle(o) === 'Import error') return true;
  }
  if (window.systraceLoad) return window.systraceLoad.done;
  const view = document.querySelector('tr-ui-timeline-view');
  return !!(view && view.model);
}

// Runs in the page: what the viewer made of the trace.
function summarize(nameCap) {
  // Does the trace name this thread?  ftrace writes "<...>" for a task
  // whose name it did not know; the viewer renames a process's main
  // thread "UI Thread" (moving its name to the process) or "UI thread"
  // (when the process dump names the process).
  const namedByTrace = (t) => {
    let name = t.name;
    if ((name === 'UI Thread' || name === 'UI thread') && t.parent &&
        t.tid === t.parent.pid) {
      name = t.parent.name;
    }
    return !!name && name !== '<...>';
  };
  const out = {ok: false, error: null, title: document.title};
  // innerText holds only rendered text: true while the viewer's yellow
  // "running with WebComponentsV0 polyfill" bar is on screen.
  out.polyfillBanner = document.body.innerText.includes('WebComponentsV0 polyfill');
  let errorText = null;
  for (const o of Array.from(document.querySelectorAll('.overlay'))) {
    const t = o.shadowRoot && o.shadowRoot.querySelector('title') ||
              o.querySelector('title');
    if (t && t.textContent === 'Import error') {
      errorText = (o.textContent || '').trim() || 'Import error';
    }
  }
  const load = window.systraceLoad;
  if (load && load.error) errorText = load.error;
  out.error = errorText;
  const view = document.querySelector('tr-ui-timeline-view');
  const model = load && load.model || view && view.model;
  out.viewTitle = view && view.$ && view.$.title ? view.$.title.textContent : null;
  if (!model) {
    out.ok = errorText === null && !!load && load.done;
    return out;
  }
  out.ok = errorText === null;
  const processes = Object.values(model.processes);
  const threads = Object.values(model.kernel.threads || {});
  for (const p of processes) threads.push(...Object.values(p.threads));
  const countAsync = (slices) => slices.reduce(
      (n, s) => n + 1 + countAsync(s.subSlices || []), 0);
  out.processes = processes.length;
  out.threads = threads.length;
  out.slices = threads.reduce((n, t) => n + t.sliceGroup.slices.length, 0);
  const cpus = Object.values(model.kernel.cpus);
  out.cpus = cpus.filter((c) => c.slices.length > 0).length;
  out.cpuSlices = cpus.reduce((n, c) => n + c.slices.length, 0);
  const counters = model.getAllCounters();
  out.counters = counters.length;
  out.counterSamples = counters.reduce(
      (n, c) => n + c.series.reduce((m, s) => m + s.samples.length, 0), 0);
  out.cpuCounters = cpus.reduce((n, c) => n + Object.keys(c.counters).length, 0);
  const sliced = threads.filter((t) => t.sliceGroup.slices.length > 0);
  out.sliceThreads = sliced.length;
  out.namedSliceThreads = sliced.filter(namedByTrace).length;
  out.asyncSlices = threads.reduce(
      (n, t) => n + countAsync(t.asyncSliceGroup.slices), 0);
  const unfinished = (s) => s.didNotFinish || /no matching END/.test(s.error || '');
  const countUnfinished = (slices) => slices.reduce(
      (n, s) => n + (unfinished(s) ? 1 : 0) + countUnfinished(s.subSlices || []), 0);
  out.unfinishedAsyncSlices = threads.reduce(
      (n, t) => n + countUnfinished(t.asyncSliceGroup.slices), 0);
  const names = (list) => [...new Set(list.filter((n) => n))].sort();
  out.processNames = names(processes.map((p) => p.name));
  const threadNames = names(threads.map((t) => t.name));
  out.threadNameCount = threadNames.length;
  out.threadNames = threadNames.slice(0, nameCap);
  const sliceNames = names(threads.flatMap(
      (t) => t.sliceGroup.slices.map((s) => s.title)));
  out.sliceNameCount = sliceNames.length;
  out.sliceNames = sliceNames.slice(0, nameCap);
  const warnings = names(model.importWarnings.map((w) => `${w.type}: ${w.message}`));
  out.importWarningCount = warnings.length;
  out.importWarnings = warnings.slice(0, nameCap / 5);
  return out;
}

function checkExpect(result, expect) {
  const diffs = [];
  for (const {key, op, want} of expect) {
    const v = result[key];
    let have;
    if (Array.isArray(v)) have = v.join(',');
    else if (v === undefined) have = 'undefined';
    else have = String(v);
    let ok;
    if (op === '=') ok = have === want;
    else if (Array.isArray(v)) ok = v.some((e) => String(e).includes(want));
    else ok = have.includes(want);
    if (!ok) diffs.push(`  ${key}: expected ${op === '~' ? 'to contain ' : ''}` +
                        `${JSON.stringify(want)}, got ${JSON.stringify(have)}`);
  }
  return diffs;
}

async function checkOne(browser, file, page, opts, shot) {
  const context = await browser.newContext({viewport: {width: 1280, height: 800}});
  try {
    const tab = await context.newPage();
    const errors = new Set();   // uncaught page exceptions and console.error
    tab.on('pageerror', (e) => errors.add(String(e)));
    tab.on('console', (m) => { if (m.type() === 'error') errors.add(m.text()); });
    // The page must work offline: record (and refuse) anything not local.
    const external = new Set();
    await context.route(/^(?!file:|data:|blob:|about:)/, (route) => {
      external.add(route.request().url());
      return route.abort();
    });
    const start = Date.now();
    await tab.goto(pathToFileURL(path.resolve(page)).href,
                   {waitUntil: 'commit', timeout: opts.timeoutMs});
    try {
      await tab.waitForFunction(importEnded, null,
                                {timeout: opts.timeoutMs, polling: 100});
    } catch (e) {
      const what = e.name === 'TimeoutError' ? `timeout after ${opts.timeoutMs} ms`
                                             : `waiting failed: ${e.message}`;
      return {ok: false, timedOut: true, file,
              error: what +
                     (errors.size ? `; page errors: ${[...errors].join(' | ')}` : '')};
    }
    const loadMs = Date.now() - start;
    const result = await tab.evaluate(summarize, NAME_CAP);
    result.pageErrors = [...errors].slice(0, 20);
    result.externalRequests = [...external].slice(0, 20);
    result.loadMs = loadMs;
    result.file = file;
    if (shot) {
      // The track view sets its initial zoom from a polling timer; let it draw.
      await tab.waitForTimeout(1000);
      await tab.screenshot({path: shot});
    }
    return result;
  } finally {
    await context.close();
  }
}

function shotName(base, index, count) {
  if (!base || count === 1) return base;
  const ext = path.extname(base);
  return `${base.slice(0, base.length - ext.length)}-${index + 1}${ext}`;
}

// The run's shared browser (tests/browser/server.mjs) when there is one, else
// one of our own; launch() gives every run a fresh temporary profile, and a
// shared browser a fresh context per check (checkOne).
async function sharedEndpoint() {
  const file = process.env.SYSTRACE_BROWSER_WS_FILE;
  if (!file) return null;
  for (let i = 0; i < 300; i++) {   // tests/run starts it beside the first cases
    try {
      const ws = readFileSync(file, 'utf8');
      if (ws) return ws.startsWith('ws') ? ws : null;
    } catch { /* not yet written */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  return null;
}

async function openBrowser() {
  const ws = await sharedEndpoint();
  if (ws) {
    try {
      return await chromium.connect(ws, {timeout: 10000});
    } catch (e) {
      process.stderr.write(`check.mjs: shared browser unreachable (${e.message}); ` +
                           'launching one\n');
    }
  }
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: LAUNCH_ARGS,
  });
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const workDir = mkdtempSync(path.join(tmpdir(), 'systrace-check-'));
  let browser;
  let failed = false;
  let harnessError = null;
  try {
    browser = await openBrowser();
    for (const [i, f] of opts.files.entries()) {
      const page = pageFor(f.path, workDir, i);
      const result = await checkOne(browser, f.path, page, opts,
                                    shotName(opts.screenshot, i, opts.files.length));
      process.stdout.write(JSON.stringify(result) + '\n');
      if (result.timedOut) harnessError = `${f.path}: ${result.error}`;
      const diffs = checkExpect(result, f.expect);
      if (diffs.length) {
        failed = true;
        process.stderr.write(`check.mjs: ${f.path}: expectations not met:\n` +
                             diffs.join('\n') + '\n');
      }
    }
  } catch (e) {
    harnessError = `harness failure: ${e && e.stack || e}`;
  } finally {
    if (browser) await browser.close().catch(() => {});
    rmSync(workDir, {recursive: true, force: true});
  }
  if (harnessError) die(harnessError);
  process.exit(failed ? 1 : 0);
}

main();
