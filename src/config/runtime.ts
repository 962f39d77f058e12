/**
 * The Node lines the service runs on, as package.json's `engines` says: Node 22 from 22.14 (the first with N-API 10,
 * which better-sqlite3 13's binding needs) and Node 24 or later. On an older Node the binding does not fail cleanly
 * (a segmentation fault on Node 20), so the entry points refuse to start with this message instead.
 */
export function unsupportedRuntimeMessage(version: string = process.versions.node): string | undefined {
  const [major, minor] = version.split('.').map(Number);
  if (major > 22 && major !== 23) return undefined;
  if (major === 22 && minor >= 14) return undefined;
  return `Tracker needs Node 22.14 or later on the 22 line, or Node 24 or later; this is Node ${version}` +
    (major <= 20 ? ' (past its end of life). `npm start` and `npm test` run the project\'s own Node 24 from node_modules.' : '.');
}
