// The flags every headless Chromium of the tests runs with: no sandbox (root),
// no GPU, and nothing that reaches the network on its own.
export const LAUNCH_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--disable-dev-shm-usage',
];
