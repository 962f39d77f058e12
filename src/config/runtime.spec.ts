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
});
