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
// - The speed machinery stays behind one boundary (issue 39; `machineryBoundary` below): its API is used by
//   src/database, src/common, a module's store folder (src/<module>/store: the bug store, the kept answers) and the
//   composition root only.
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

/**
 * The speed machinery behind one boundary (issue 39, docs/data-layer.md). Its API — held, combined and later writes,
 * pipelined reads, undoable steps, commit conditions, row ids still held in the database, presumed callers, companion
 * reads, kept answers and kept bugs with their projection — is used by src/database, src/common (the request
 * machinery), the stores (MODULES_WITH_A_STORE) and the composition root (src/*.ts: the routes' fast paths, src/fast-paths.ts).
 * A module's store (src/<module>/store) is the one folder of a module where its part of the machinery lives: bug's
 * (the bug tables with held writes, kept bugs and their JSON, the bugs' companion reads, Get Bug's kept answer),
 * bug-write's (the update projection of kept bugs, a request's undoable part of a shared Update Bug transaction),
 * auth's (the credential statements with their companion reads, presumed callers), audit's (the settings mark),
 * and the kept answers of comment and info. Elsewhere a service or controller says what it does (read these bugs,
 * record this change, answer from what is kept) through those stores' services and the boundary serves it. Specs
 * may exercise the machinery they test.
 */
const MACHINERY_MEMBERS = [
  'withHeldWrites', 'gathering', 'readingWithNext', 'undoableStep', 'runWriteLater', 'runInsertHeld', 'writtenTables',
  'keepJson', 'keptJson', 'stampsWithNext', 'keepWhenCommitted', 'forgetWhenCommitted', 'presumed', 'companion',
];
const MACHINERY_NAMES = [
  'HeldRowId', 'RowId', 'CommitCondition', 'PendingId', 'pendingIdOf', 'knownId', 'insertRowHeld', 'PresumedCaller',
  'companionValue', 'CompanionFound', 'CompanionRead', 'CompanionPlan', 'CompanionRequest', 'CompanionStatement',
  'CompanionReadType', 'KeptAnswer', 'stateAfter', 'followsWrites',
];
/**
 * The modules with a store, named one by one: a new store is a reviewed line here, not any folder called `store`.
 */
const MODULES_WITH_A_STORE = ['audit', 'auth', 'bug', 'bug-write', 'comment', 'info'];
const alternatives = (names) => `/^(${names.join('|')})$/`;
const beyondTheBoundary = 'is the speed machinery: only src/database, src/common, the stores (src/<module>/store of MODULES_WITH_A_STORE) and the ' +
  'composition root use it (eslint.config.js, machineryBoundary). Say what the code does and let the boundary serve it.';
const machineryBoundary = {
  files: ['src/**/*.ts'],
  ignores: [
    'src/*.ts', 'src/database/**', 'src/common/**', ...MODULES_WITH_A_STORE.map((module) => `src/${module}/store/**`), 'src/**/*.spec.ts',
  ],
  rules: {
    'no-restricted-syntax': ['error',
      { selector: `MemberExpression[property.name=${alternatives(MACHINERY_MEMBERS)}]`, message: `This member ${beyondTheBoundary}` },
      { selector: `ImportSpecifier[imported.name=${alternatives(MACHINERY_NAMES)}]`, message: `This name ${beyondTheBoundary}` },
      { selector: 'Identifier[name=/^FOLLOWED_/]', message: `The kept-bug projection ${beyondTheBoundary}` },
    ],
  },
};

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
  machineryBoundary,
  {
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
  },
);
