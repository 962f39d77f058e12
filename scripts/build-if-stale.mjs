// Builds dist/ with tsc only when a source is newer than the last build, so that `npm start` and
// `npm run tracker -- …` start at once on a built checkout (issue 14) and still never run stale code.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const built = path.join(root, 'dist/src/main.js');
const sources = ['src', 'bench', 'scripts', 'ormconfig.ts', 'tsconfig.json', 'tsconfig.build.json', 'package.json'];

function newestMtime(entry) {
  const stat = fs.statSync(entry, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return entry.endsWith('.ts') || entry.endsWith('.json') ? stat.mtimeMs : 0;
  return Math.max(0, ...fs.readdirSync(entry).map((name) => newestMtime(path.join(entry, name))));
}

// Without src/ there is nothing to build: `npm ci` in the image's dependency layer runs this (the `prepare` script)
// before the sources are copied.
const hasSources = fs.existsSync(path.join(root, 'src'));
const builtAt = fs.statSync(built, { throwIfNoEntry: false })?.mtimeMs ?? 0;
if (hasSources && Math.max(...sources.map((source) => newestMtime(path.join(root, source)))) > builtAt) {
  execFileSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', path.join(root, 'tsconfig.build.json')], { cwd: root, stdio: 'inherit' });
  // tsc leaves files it did not need to rewrite untouched: mark the build as done now.
  const now = new Date();
  fs.utimesSync(built, now, now);
}
