#!/usr/bin/env node
// One headless Chromium for a whole test run: tests/run starts this, and
// check.mjs connects to it (SYSTRACE_BROWSER_WS) instead of launching a
// browser of its own for every case.  Each check still gets a fresh
// browser context (its own storage, routes and pages).
//
//   node server.mjs ENDPOINT_FILE    writes the ws:// endpoint there, then
//                                    serves until SIGTERM/SIGINT or until
//                                    its parent (tests/run) is gone
import {chromium} from 'playwright-core';
import {writeFileSync, renameSync, readFileSync} from 'node:fs';
import {LAUNCH_ARGS} from './launch.mjs';

const out = process.argv[2];
if (!out) {
  process.stderr.write('usage: server.mjs ENDPOINT_FILE\n');
  process.exit(2);
}
function publish(text) {
  writeFileSync(`${out}.tmp`, text);
  renameSync(`${out}.tmp`, out);
}
let server;
try {
  server = await chromium.launchServer({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: LAUNCH_ARGS,
  });
} catch (e) {
  publish('none');   // the checks launch their own, without waiting longer
  process.stderr.write(`server.mjs: ${e.message}\n`);
  process.exit(1);
}
publish(server.wsEndpoint());
const parent = process.ppid;
let closing = false;
async function stop() {
  if (closing) return;
  closing = true;
  await server.close().catch(() => {});
  // The browser's CPU seconds (it and its children, reaped on close), for
  // tests/run's report: they are in no case's own time.
  try {
    const f = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    const ticks = Number(f[13]) + Number(f[14]);   // cutime + cstime
    process.stdout.write(`browser CPU ${Math.round(ticks / 100)}s\n`);
  } catch { /* not Linux */ }
  process.exit(0);
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
// never outlive the run that started it
setInterval(() => {
  try { process.kill(parent, 0); } catch { stop(); }
}, 1000);
