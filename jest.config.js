// Jest runs the project as ES modules (see ../shared/design.md, "Toolchain facts"):
// started through `node --experimental-vm-modules`, ts-jest in ESM mode, `.js` stripped from relative imports.
const tsJest = ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }];
const common = {
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': tsJest },
  testEnvironment: 'node',
  setupFiles: ['<rootDir>/test/support/setup-env.js'],
};
export default {
  // Jest reads testTimeout from the top level only (a project's own is ignored); the e2e hooks boot an app.
  testTimeout: 60000,
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts'] },
    { ...common, displayName: 'e2e', testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'] },
  ],
};
