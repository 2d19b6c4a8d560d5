#!/usr/bin/env node
// Opens systrace HTML pages in headless Debian chromium and prints, per file,
// one JSON line saying what catapult's trace viewer imported.
//
//   node check.mjs FILE [--expect K=V|K~TEXT ...] [FILE [--expect ...]] ...
//                  [--screenshot OUT.png] [--timeout-ms N] [--fresh]
//
// A FILE not starting with '<' (ftrace text, JSON trace) is first wrapped into
// a page with mkpage.py. It waits until the page's import finished or an
// "Import error" overlay appeared; pages from catapult's own systrace (no
// window.systraceLoad) are recognised by their timeline view and overlay.
// --expect applies to the FILE before it: K=V compares the field's value
// (arrays joined with ','), K~TEXT wants TEXT in it (for arrays: in an element).
// Exit: 0 evaluated (import failures included: the caller asserts), 1 an
// --expect did not hold (diff on stderr), 2 harness failure.
// Several files share one browser tab: the viewer parse dominates a check.
// A page of the viewer the tab already runs has its trace imported there
// (viewer.mjs, "reopened" in the result); --fresh loads every page as a user
// opens it, for checks of the page itself rather than of its trace.
// Inside tests/run the checks run in the run's shared browser (server.mjs,
// reached over a Unix socket); elsewhere this launches one of its own.
import {execFileSync} from 'node:child_process';
import {mkdtempSync, openSync, readSync, closeSync, rmSync, existsSync, readFileSync}
    from 'node:fs';
import {createConnection} from 'node:net';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {pathToFileURL, fileURLToPath} from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const USAGE = 'usage: check.mjs FILE [--expect K=V ...] ... ' +
    '[--screenshot OUT.png] [--timeout-ms N] [--fresh]';

function die(msg) {
  process.stderr.write(`check.mjs: ${msg}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const opts = {files: [], screenshot: null, timeoutMs: 120000, fresh: false};
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
    } else if (a === '--fresh') {
      opts.fresh = true;
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

function shotName(base, index, count) {
  if (!base || count === 1) return base;
  const ext = path.extname(base);
  return `${base.slice(0, base.length - ext.length)}-${index + 1}${ext}`;
}

// The run's shared browser (tests/browser/server.mjs): the path of its
// socket, or null when there is none (or it could not start).
async function sharedSocket() {
  const file = process.env.SYSTRACE_BROWSER_FILE;
  if (!file) return null;
  for (let i = 0; i < 300; i++) {   // tests/run starts it beside the first cases
    try {
      const text = readFileSync(file, 'utf8');
      if (text) return text.startsWith('/') ? text : null;
    } catch { /* not yet written */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  return null;
}

// Sends the jobs to the shared browser; onResult for each result line.
// Resolves null when done, the server's harness error, or rejects when the
// server cannot be reached at all (before any result).
function checkShared(sock, jobs, timeoutMs, onResult) {
  return new Promise((resolve, reject) => {
    const conn = createConnection(sock);
    let buf = '';
    let got = 0;
    let harness = null;
    conn.setEncoding('utf8');
    conn.on('connect', () => conn.write(JSON.stringify({jobs, timeoutMs}) + '\n'));
    conn.on('data', (d) => {
      buf += d;
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        let msg;
        try {
          msg = JSON.parse(buf.slice(0, nl));
        } catch {
          msg = {harnessError: `shared browser: not a JSON line: ${buf.slice(0, 200)}`};
        }
        buf = buf.slice(nl + 1);
        if (msg.result) { got++; onResult(msg.result); }
        if (msg.harnessError) harness = msg.harnessError;
      }
    });
    conn.on('error', (e) => (got ? resolve(`shared browser: ${e.message}`) : reject(e)));
    conn.on('close', () => resolve(harness ||
        (got < jobs.length ? `shared browser closed after ${got} of ${jobs.length} pages` : null)));
  });
}

// No shared browser: one of our own, with a fresh temporary profile.
async function checkOwn(jobs, timeoutMs, onResult) {
  const {chromium} = await import('playwright-core');
  const {LAUNCH_ARGS} = await import('./launch.mjs');
  const {TabPool, runChecks} = await import('./viewer.mjs');
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: LAUNCH_ARGS,
  });
  const pool = new TabPool(browser, 1);
  try {
    await runChecks(pool, jobs, timeoutMs, onResult, new Map());
  } finally {
    await pool.close();
    await browser.close().catch(() => {});
  }
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const workDir = mkdtempSync(path.join(tmpdir(), 'systrace-check-'));
  let failed = false;
  let harnessError = null;
  let done = 0;
  const onResult = (result) => {
    const f = opts.files[done++];
    process.stdout.write(JSON.stringify(result) + '\n');
    if (result.timedOut) harnessError = `${f.path}: ${result.error}`;
    const diffs = checkExpect(result, f.expect);
    if (diffs.length) {
      failed = true;
      process.stderr.write(`check.mjs: ${f.path}: expectations not met:\n` +
                           diffs.join('\n') + '\n');
    }
  };
  try {
    const jobs = opts.files.map((f, i) => ({
      file: f.path,
      page: pathToFileURL(path.resolve(pageFor(f.path, workDir, i))).href,
      shot: shotName(opts.screenshot, i, opts.files.length) &&
            path.resolve(shotName(opts.screenshot, i, opts.files.length)),
      fresh: opts.fresh,
    }));
    const sock = await sharedSocket();
    let own = !sock;
    if (sock) {
      try {
        const err = await checkShared(sock, jobs, opts.timeoutMs, onResult);
        if (err) harnessError = harnessError || err;
      } catch (e) {
        process.stderr.write(`check.mjs: shared browser unreachable (${e.message}); ` +
                             'launching one\n');
        own = true;
      }
    }
    if (own) await checkOwn(jobs, opts.timeoutMs, onResult);
  } catch (e) {
    harnessError = `harness failure: ${e && e.stack || e}`;
  } finally {
    rmSync(workDir, {recursive: true, force: true});
  }
  if (harnessError) die(harnessError);
  process.exit(failed ? 1 : 0);
}

main();
