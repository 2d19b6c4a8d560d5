// The flags every headless Chromium of the tests runs with: no sandbox (root),
// no GPU, and nothing that reaches the network on its own.  A checked page
// lives a few seconds: V8's optimising compilers (TurboFan, Maglev), which
// compile hot code on other threads, never paid back there and cost a tenth
// of the browser's CPU in a test run; the viewer runs the same without them.
export const LAUNCH_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--disable-dev-shm-usage', '--js-flags=--no-opt --no-maglev',
];
