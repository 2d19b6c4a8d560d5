#!/usr/bin/env node
// One headless Chromium for a whole test run: tests/run starts this, and
// check.mjs sends it the pages to check over a Unix socket instead of
// launching a browser (and loading playwright) for every case.  Checks run
// side by side, each in a tab of its own context; tabs are reused from check
// to check (viewer.mjs's TabPool), which is what makes a page cheap.
//
//   node server.mjs ENDPOINT_FILE SOCKET
//       listens on SOCKET, then writes its path to ENDPOINT_FILE ("none"
//       when Chromium cannot start), and serves until SIGTERM/SIGINT or
//       until its parent (tests/run) is gone.
// Protocol: one JSON line {jobs: [{file, page, shot}], timeoutMs} per
// connection; the answer is one line {result} per job, in order, or a
// line {harnessError} that ends it.
import {chromium} from 'playwright-core';
import {writeFileSync, renameSync, readFileSync, readdirSync, rmSync} from 'node:fs';
import {createServer} from 'node:net';
import {LAUNCH_ARGS} from './launch.mjs';
import {TabPool, runChecks} from './viewer.mjs';

const [out, sock] = process.argv.slice(2);
if (!out || !sock) {
  process.stderr.write('usage: server.mjs ENDPOINT_FILE SOCKET\n');
  process.exit(2);
}
function publish(text) {
  writeFileSync(`${out}.tmp`, text);
  renameSync(`${out}.tmp`, out);
}
let browser;
try {
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: LAUNCH_ARGS,
  });
} catch (e) {
  publish('none');   // the checks launch their own, without waiting longer
  process.stderr.write(`server.mjs: ${e.message}\n`);
  process.exit(1);
}
const pool = new TabPool(browser, 6);
const results = new Map();   // page results by content (viewer.mjs, runChecks)
let served = 0;
let reopened = 0;   // pages whose trace went into a running viewer (viewer.mjs)

function serve(conn) {
  let buf = '';
  conn.setEncoding('utf8');
  conn.on('error', () => {});
  conn.on('data', async (d) => {
    buf += d;
    const nl = buf.indexOf('\n');
    if (nl < 0) return;
    conn.removeAllListeners('data');
    const send = (msg) => { if (!conn.destroyed) conn.write(JSON.stringify(msg) + '\n'); };
    const t0 = Date.now();
    try {
      const {jobs, timeoutMs} = JSON.parse(buf.slice(0, nl));
      const loads = [];
      await runChecks(pool, jobs, timeoutMs, (result) => {
        loads.push(`${result.file} ${result.cached ? 'same as one checked' :
                                     result.loadMs === undefined ? '-' : result.loadMs}` +
                   (result.reopened ? ' (reopened)' : ''));
        if (result.reopened) reopened++;
        send({result});
      }, results);
      served += jobs.length;
      // which pages cost the run its time (wall ms to import end)
      process.stdout.write(`${jobs.length} page(s) in ${Date.now() - t0} ms: ` +
                           `${loads.join(', ')}\n`);
    } catch (e) {
      send({harnessError: `harness failure: ${e && e.stack || e}`});
    }
    conn.end();
  });
}

rmSync(sock, {force: true});
const server = createServer(serve);
server.on('error', (e) => {
  process.stderr.write(`server.mjs: ${sock}: ${e.message}\n`);
  publish('none');
  process.exit(1);
});
server.listen(sock, () => publish(sock));

const parent = process.ppid;
let closing = false;
// CPU seconds of this process's descendants (the browser and its
// renderers, live, exited but not yet reaped, or reaped by one of them):
// the renderers' zygote leaves them unreaped, so the cutime of this
// process alone missed most of the browser's work.
function treeCpuSeconds() {
  const stat = new Map();   // pid -> [ppid, ticks]
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      stat.set(Number(pid), [Number(f[1]), Number(f[11]) + Number(f[12]) +
                             Number(f[13]) + Number(f[14])]);
    } catch { /* gone */ }
  }
  let ticks = 0;
  for (const [parent, t] of stat.values()) {
    for (let p = parent, hops = 0; p > 1 && hops < 64; p = (stat.get(p) || [0])[0], hops++) {
      if (p === process.pid) { ticks += t; break; }
    }
  }
  return Math.round(ticks / 100);
}

async function stop() {
  if (closing) return;
  closing = true;
  server.close();
  // for tests/run's report: the browser's CPU is in no case's own time
  let cpu = null;
  try { cpu = treeCpuSeconds(); } catch { /* not Linux */ }
  await pool.close();
  await browser.close().catch(() => {});
  process.stdout.write(`${served} pages checked (${reopened} reopened) in ${pool.made} tabs\n`);
  if (cpu !== null) process.stdout.write(`browser CPU ${cpu}s\n`);
  rmSync(sock, {force: true});
  process.exit(0);
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
// never outlive the run that started it
setInterval(() => {
  try { process.kill(parent, 0); } catch { stop(); }
}, 1000);
