// `E2E_BASE_URL=http://host:port E2E_ADMIN_API_KEY=… npm run test:e2e:remote`: the end-to-end suite, black-box,
// against a running instance (a container, `docker compose up`, a staging server). Everything is set up through the
// API with the administrator's key; the in-process-only files and tests are left out (test/support/in-process*.{cjs,ts}).
// Afterwards it lists the documented routes (the instance's OpenAPI document) that no request of the run reached,
// and fails if there is one. Extra arguments go to jest (a file name, -t …).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const base = process.env.E2E_BASE_URL?.trim().replace(/\/+$/, '');
if (!base || !process.env.E2E_ADMIN_API_KEY?.trim()) {
  console.error('Set E2E_BASE_URL (http://host:port of a running Tracker) and E2E_ADMIN_API_KEY (an administrator\'s API key).');
  process.exit(2);
}
const log = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tracker-e2e-remote-')), 'routes.log');
fs.writeFileSync(log, '');
const jestArgs = process.argv.slice(2);
let failed = false;
try {
  // One file at a time: the files share the instance, and some read what the instance holds as a whole.
  execFileSync(process.execPath, ['--experimental-vm-modules', 'node_modules/jest/bin/jest.js', '--selectProjects', 'e2e', '--runInBand', ...jestArgs], {
    stdio: 'inherit',
    env: { ...process.env, E2E_BASE_URL: base, E2E_ROUTE_LOG: log },
  });
} catch {
  failed = true;
}
if (!jestArgs.length) {
  try {
    execFileSync(process.execPath, ['scripts/route-coverage.mjs', base, log], { stdio: 'inherit' });
  } catch {
    failed = true;
  }
}
process.exit(failed ? 1 : 0);
