import { readFileSync } from 'node:fs';
import path from 'node:path';
import { unsupportedRuntimeMessage } from './runtime.js';

describe('unsupportedRuntimeMessage', () => {
  it.each(['22.14.0', '22.23.3', '24.0.0', '24.21.0', '26.1.0'])('accepts Node %s', (version) => {
    expect(unsupportedRuntimeMessage(version)).toBeUndefined();
  });

  it.each(['20.20.2', '22.13.1', '23.11.0', '18.20.0'])('refuses Node %s, naming it', (version) => {
    expect(unsupportedRuntimeMessage(version)).toContain(`this is Node ${version}`);
  });

  it('tells a Node 20 user that it is past its end of life and where the project runtime is', () => {
    expect(unsupportedRuntimeMessage('20.20.2')).toMatch(/end of life.*node_modules/);
  });
});

describe('the runtime the project pins', () => {
  const root = path.resolve(import.meta.dirname, '../..');
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { engines: { node: string }; devDependencies: Record<string, string> };
  const dockerNode = /^ARG NODE_VERSION=(\S+)$/m.exec(readFileSync(path.join(root, 'Dockerfile'), 'utf8'))?.[1];

  it('is one Node 24 version for npm scripts (the node dev dependency) and the Docker image', () => {
    expect(pkg.devDependencies.node).toMatch(/^24\.\d+\.\d+$/);
    expect(dockerNode).toBe(pkg.devDependencies.node);
    expect(unsupportedRuntimeMessage(dockerNode)).toBeUndefined();
  });

  it('is the runtime the tests run on', () => {
    expect(unsupportedRuntimeMessage()).toBeUndefined();
  });

  it('agrees with engines', () => {
    expect(pkg.engines.node).toBe('^22.14.0 || >=24');
  });

  it('starts the service with the same node options everywhere it is started as in production', () => {
    // The young generation's size: Node 24 lets it grow to 64 MB a semi-space on a large machine (Node 20: 16 MB),
    // which alone added ~100 MB of RSS under load (bench/runs.csv, 2026-11-26 second entry). The old generation's
    // limit: below 2 GB it also caps how far V8 grows the heap past what is live (docs/performance.md, memory).
    const options = ['--max-semi-space-size=8', '--max-old-space-size=1024'];
    const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
    expect((pkg as unknown as { scripts: Record<string, string> }).scripts.start).toContain(`node ${options.join(' ')} dist/src/main.js`);
    expect(read('Dockerfile')).toContain(`CMD ["node", ${options.map((o) => `"${o}"`).join(', ')}, "dist/src/main.js"]`);
    expect(read('scripts/e2e-against-build.sh')).toContain(`"$service_node" ${options.join(' ')} dist/src/main.js`);
    expect(read('bench/support.ts')).toContain(`SERVICE_NODE_OPTIONS = [${options.map((o) => `'${o}'`).join(', ')}]`);
  });

  it('starts the service with two malloc arenas everywhere it is started as in production', () => {
    // glibc gives each thread that allocates (libuv's pool, V8's helpers) an arena of its own, up to 8 per core, and
    // returns little of them: after the bench, RSS 243–267 MB with the default, 202–210 MB with two (bench/RESULTS.md).
    const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
    expect((pkg as unknown as { scripts: Record<string, string> }).scripts.start).toMatch(/MALLOC_ARENA_MAX=2 exec node /);
    expect(read('Dockerfile')).toMatch(/^ {4}MALLOC_ARENA_MAX=2 \\$/m);
    expect(read('scripts/e2e-against-build.sh')).toContain('MALLOC_ARENA_MAX=2 "$service_node"');
    expect(read('bench/support.ts')).toContain("SERVICE_ENV = { MALLOC_ARENA_MAX: '2' }");
  });
});
