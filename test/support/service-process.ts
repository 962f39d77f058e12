import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ADMIN_API_KEY } from './test-app.js';

export const ROOT = path.resolve(import.meta.dirname, '../..');

/** Builds dist/ when a source changed (scripts/build-if-stale.mjs), for tests of the built service as a process. */
export function buildService(): void {
  execFileSync(process.execPath, [path.join(ROOT, 'scripts/build-if-stale.mjs')], { cwd: ROOT });
}

/** A port per test process, away from the ones the in-process apps take (0 = any). */
export function servicePort(): number {
  return 20_000 + (process.pid % 20_000);
}

/**
 * Starts the built service (`node dist/src/main.js`, as `npm start` and the container do) on its own database and
 * port, and resolves once it answers GET /rest/version. Its output goes to the file `log` when given.
 */
export async function startService(env: Record<string, string>, log?: string): Promise<ChildProcess> {
  const port = env.PORT ?? String(servicePort());
  const output = log === undefined ? 'ignore' : fs.openSync(log, 'a');
  const child = spawn(process.execPath, [path.join(ROOT, 'dist/src/main.js')], {
    cwd: ROOT,
    env: { ...process.env, TZ: 'UTC', PORT: port, HOST: '127.0.0.1', TRACKER_ADMIN_API_KEY: ADMIN_API_KEY, TRACKER_ADMIN_PASSWORD: 'service-password-1', ...env },
    stdio: ['ignore', output, output],
  });
  if (typeof output === 'number') fs.closeSync(output);
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode} while starting`);
    if (await fetch(`http://127.0.0.1:${port}/rest/version`).then((res) => res.ok, () => false)) return child;
    await sleep(100);
  }
  child.kill('SIGKILL');
  throw new Error('the service did not start');
}
