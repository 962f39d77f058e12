// ESLint (flat config) with typescript-eslint: `npm run lint` over src, test, bench and scripts; `npm test` runs it.
//
// What it enforces, and why:
// - `recommended` + `recommendedTypeChecked`: above all the promise rules that catch real bugs in a Nest service —
//   `no-floating-promises` (a promise neither awaited nor returned: an unhandled rejection, a write that escapes
//   its transaction), `no-misused-promises` (a promise where a void callback is expected), `await-thenable`.
// - In `src`, `any` is refused (`no-explicit-any`, `no-unsafe-*`): rows are entities or typed interfaces, and no
//   `any` leaves a repository (issue 8, docs/data-layer.md).
// - In tests and the bench, HTTP response bodies are JSON of the API under test, typed `any` on purpose: the
//   `any` rules are off there; the promise rules stay on.
//
// Switched off, with the reason:
// - `require-await`: Nest providers and interface implementations are `async` without awaiting (a mailer stub,
//   a `send` that returns at once); the promise rules above cover what matters.
// - `no-base-to-string`: request parsing takes `unknown` and refuses objects before it stringifies, but
//   TypeScript cannot narrow `{}` by `typeof value !== 'object'`, so the rule flags exactly the guarded code.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  { ignores: ['dist/', 'node_modules/', 'coverage/'] },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-base-to-string': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    files: ['test/**', 'bench/**', 'src/**/*.spec.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // `expect(service.method)` and jest mocks pass methods around unbound on purpose
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
  },
);
