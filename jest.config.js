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
// The e2e files none of whose tests applies to this pass (its dialect, E2E_BASE_URL, TRACKER_FAST_PATHS) are left out.
const filesLeftOut = require('./test/support/pass-files.cjs')(process.env);

export default {
  // Jest reads testTimeout from the top level only (a project's own is ignored); the e2e hooks boot an app.
  testTimeout: 60000,
  // The default reporter, and a run with a skipped test fails (test/support/no-skipped-tests.js).
  reporters: ['default', '<rootDir>/test/support/no-skipped-tests.js'],
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts'] },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      testPathIgnorePatterns: ['/node_modules/', ...filesLeftOut.map((name) => `/test/e2e/${name}\\.e2e-spec\\.ts$`)],
    },
    // Read replicas (issue 40): the production build on a MariaDB primary and replica of the test's own
    // (scripts/replica-cluster.sh), started, broken and restarted by the test; scripts/test.sh runs it on its own.
    { ...common, displayName: 'replica', testMatch: ['<rootDir>/test/replica/**/*.spec.ts'] },
  ],
};
