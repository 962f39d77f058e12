import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
// Jest runs the project as ES modules:
// started through `node --experimental-vm-modules`, ts-jest in ESM mode, `.js` stripped from relative imports.
const tsJest = ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }];
const common = {
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': tsJest },
  testEnvironment: 'node',
  setupFiles: ['<rootDir>/test/support/setup-env.js'],
};
// Against a running instance (E2E_BASE_URL, `npm run test:e2e:remote`) the in-process-only files are left out.
const remote = !!process.env.E2E_BASE_URL;
const inProcessFiles = remote ? require('./test/support/in-process-files.cjs') : [];

export default {
  // Jest reads testTimeout from the top level only (a project's own is ignored); the e2e hooks boot an app.
  testTimeout: 60000,
  // The default reporter, and the skipped tests counted by the reason their titles give (test/support/conditions.ts).
  reporters: ['default', '<rootDir>/test/support/skip-reporter.js'],
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts'] },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      testPathIgnorePatterns: ['/node_modules/', ...inProcessFiles.map((name) => `/test/e2e/${name}\\.e2e-spec\\.ts$`)],
    },
    // Read replicas (issue 40): the production build on a MariaDB primary and replica of the test's own
    // (scripts/replica-cluster.sh), started, broken and restarted by the test; scripts/test.sh runs it on its own.
    { ...common, displayName: 'replica', testMatch: ['<rootDir>/test/replica/**/*.spec.ts'] },
  ],
};
