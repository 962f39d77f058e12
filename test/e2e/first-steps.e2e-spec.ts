import type { ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildService, ROOT, servicePort, startService } from '../support/service-process.js';
import { describeWhen, onDialect } from '../support/conditions.js';

/**
 * The README's "First steps", run as written (issue 41): its fenced shell blocks, in order, in one bash, against the
 * built service on a new SQLite installation, from the repository's folder as a newcomer would. Each command's
 * output is compared with the `# → …` answer the README shows under it: the same keys and strings, any number for
 * a number (an id), and more keys where the README shows `"…": "…"`.
 */
const section = (() => {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## First steps\n');
  const end = readme.indexOf('\n## ', start + 1);
  if (start < 0 || end < 0) throw new Error('README.md has no "First steps" section');
  return readme.slice(start, end);
})();

interface Step {
  command: string;
  answer?: string;
}

/** The commands of the section's ```sh blocks (continuation lines joined), each with the answer shown under it. */
function steps(): Step[] {
  const out: Step[] = [];
  for (const [, block] of section.matchAll(/```sh\n([\s\S]*?)```/g)) {
    const lines = block.split('\n');
    for (let i = 0; i < lines.length; i++) {
      const answer = /^# → (.*)$/.exec(lines[i]);
      if (answer) out[out.length - 1].answer = answer[1];
      if (!lines[i].trim() || lines[i].startsWith('#')) continue;
      let command = lines[i];
      while (command.endsWith('\\')) command += `\n${lines[++i]}`;
      out.push({ command });
    }
  }
  return out;
}

/** Whether `actual` has the shape of the README's answer (see above); the path of the first difference otherwise. */
function difference(expected: unknown, actual: unknown, at = '$'): string | undefined {
  if (typeof expected === 'number') return typeof actual === 'number' ? undefined : at;
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return at;
    return expected.map((e, i) => difference(e, actual[i], `${at}[${i}]`)).find(Boolean);
  }
  if (expected && typeof expected === 'object') {
    if (!actual || typeof actual !== 'object' || Array.isArray(actual)) return at;
    const { '…': more, ...keys } = expected as Record<string, unknown>;
    if (!more && Object.keys(actual).length !== Object.keys(keys).length) return `${at} (keys)`;
    return Object.entries(keys).map(([k, e]) => difference(e, (actual as Record<string, unknown>)[k], `${at}.${k}`)).find(Boolean);
  }
  return expected === actual ? undefined : at;
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

// The section starts the service on its default, SQLite: once is enough (the MariaDB pass of npm test skips it).
const onSqlite = describeWhen(onDialect('sqlite', 'the section runs the service on its default, SQLite: once is enough'));

onSqlite('README, "First steps"', () => {
  let dataDir: string;
  // The service's and the admin command line's environment: a new installation with the default administrator.
  let env: Record<string, string>;
  let service: ChildProcess;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tracker-first-steps-'));
    env = { DATABASE_URL: `sqlite:${path.join(dataDir, 'tracker.sqlite')}`, TRACKER_DATA_DIR: dataDir, PORT: String(servicePort() + 3), TRACKER_MAIL_URL: 'off', TRACKER_ADMIN_EMAIL: 'admin@example.com' };
    buildService();
    service = await startService(env);
  });
  afterAll(async () => {
    const exited = once(service, 'exit');
    service.kill('SIGTERM');
    await exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('shows an answer for every request, from a product to a resolved bug', () => {
    const requests = steps().filter((step) => step.command.startsWith('curl'));
    expect(requests.map((step) => [/-X (\w+)/.exec(step.command)?.[1] ?? 'GET', /\$BASE(\/rest\/[a-z_]+(?:\/\$BUG(?:\/\w+)?)?)/.exec(step.command)?.[1]])).toEqual([
      ['GET', '/rest/whoami'],
      ['POST', '/rest/product'],
      ['POST', '/rest/component'],
      ['POST', '/rest/bug/$BUG/comment'],
      ['POST', '/rest/bug/$BUG/attachment'],
      ['GET', '/rest/bug'],
      ['PUT', '/rest/bug/$BUG'],
    ]);
    expect(requests.every((step) => step.answer)).toBe(true);
    expect(section).toContain('`TestProduct`');
  });

  it('runs as written and each step answers as shown', () => {
    const all = steps();
    const marker = '@@first-steps-step@@';
    // Each command, then a marker line: the outputs of the commands (curl prints no newline) come apart.
    const script = ['set -euo pipefail', ...all.flatMap((step) => [step.command, `printf '\\n${marker}\\n'`])].join('\n');
    const output = execFileSync('bash', ['-c', script], {
      cwd: ROOT,
      encoding: 'utf8',
      // PORT as the README says (the service's); npm from the PATH the suite runs with.
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      timeout: 120_000,
    });
    const outputs = output.split(`\n${marker}\n`).slice(0, all.length);
    expect(outputs).toHaveLength(all.length);
    const seen = all.map((step, i) => ({ command: step.command.split('\n')[0], answer: outputs[i] }));
    all.forEach((step, i) => {
      // A step the README shows no answer for (setting BASE, KEY, BUG) prints nothing.
      const found = step.answer ? difference(JSON.parse(step.answer), parsed(outputs[i])) : outputs[i].trim() || undefined;
      expect({ ...seen[i], found }).toEqual({ ...seen[i], found: undefined });
    });
  });
});
