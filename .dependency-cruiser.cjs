// The house's dependency rules (issue 8, "Boundaries, checked"; docs/architecture.md, "The rooms").
// Checked by `npm run check:deps`, which `scripts/test.sh` runs.
//
// Vocabulary
// - A *module* is a top folder of `src/` (`src/user`, `src/bug` …). Its subfolders belong to it.
// - The *composition root* may import anything: `src/app.module.ts`, `src/app.factory.ts`, `src/main.ts`, `src/server.ts`,
//   `src/entities.ts`, `src/openapi.ts`, `src/cli/`, `src/install/`, `src/import/`.
// - The *kernel* modules `config`, `common` and `database` are shared by every module and know no resource.
//
// The rules
// 1. `module-layers` — modules are stacked in LAYERS below (lowest first). A module imports only modules of a
//    lower layer, never one of its own layer or above. This is how "no import cycles between modules" is
//    checked: every import points down the stack, so no chain of imports between modules can come back. (A
//    file-level cycle check would miss a cycle that runs through different files of each module.) A new module,
//    or a new legitimate arrow, is one line in LAYERS; the stack is the documented picture of the house.
// 2. `common-knows-no-resource`, `database-knows-no-resource` — `src/common` and `src/database` import no
//    resource module (implied by the layers; kept as named rules so the message says why).
// 3. `below-bug-never-imports-bug` — the accounts modules (auth, user, group) and the catalogue modules
//    (product, field, flag) never import the bug modules, comment or attachment (also implied by the layers).
// 4. `public-surface-only` — a module reaches another only through its public surface:
//      - a file directly in the module's folder named `*.service.ts`, `*.module.ts`, `*.types.ts` or
//        `*.tokens.ts`;
//      - anything under the module's `entities/` or `dto/` folders;
//      - a file the module declares public in PUBLIC below (with the reason).
//    Everything else is internal: `*.repository.ts` anywhere, subfolders such as `update/` or `last-visit/`,
//    and helpers (`*.ts` that is none of the above). The kernel modules are public as a whole.
// 5. `no-repository-outside-its-module` — a `*.repository.ts` is imported only inside its own module (implied by 4;
//    named so that the message says why). `module-has-a-layer` — a new top folder of src/ must be placed in LAYERS.
// 6. `no-intra-module-cycles` (warning only) — file-level cycles, a smell but not a boundary.
//
// Exceptions are not the way out of a violation: move the shared piece down (to the lower module, or to
// `src/common`) or pass it in (an interface + injection token declared by the lower module).

/** Lowest first. Modules on one line are peers: they must not import each other. */
const LAYERS = [
  ['config'],
  ['common'],
  ['database'],
  ['ratelimit'],
  ['audit'],
  ['params'],
  ['group'],
  ['user'],
  ['auth'],
  ['product'],
  ['flag'],
  ['field'],
  ['bug'],
  ['bug-rules', 'bug-search', 'change-feed'],
  ['bug-write'],
  ['comment', 'attachment'],
  ['mail'],
  ['webhook'],
  ['info'],
  ['health', 'metrics'],
  // XML-RPC and JSON-RPC: an adapter that calls the REST routes in-process (src/rpc), importing no module's code.
  ['rpc'],
];

/** Composition root: may import any module (its folders are not modules for the rules above). */
const COMPOSITION_ROOT = ['cli', 'install', 'import'];

/** Kernel modules: every file is public. */
const KERNEL = ['config', 'common', 'database'];

/** Files a module declares public besides its services, Nest modules, types, tokens, entities and DTOs. */
const PUBLIC = {
  // the ports bug owns and the modules above implement: the mailer (BUG_MAILER, mail) and the comment writer with
  // the comment text rule (BUG_COMMENTS, comment), attachment privacy (BUG_ATTACHMENTS, attachment)
  // the presenter's Flag object and email filter, which attachments show exactly as bugs do
  // the bug store (store/: the bug tables' reads and writes with their speed machinery): the loader and its kept
  // bugs, the bugs' edits and writes, the bugs' visibility and stamps read with the caller's credential (companion
  // reads), for the modules above
  // what the bug modules above share with bug: the fields of a bug (selection, custom names, time tracking), the
  // loaded bug's shape and list orders (an update keeps the bug as it leaves it), and how changes are named and
  // written (history reads them, create and update write them)
  bug: [
    'bug-events.ts', 'bug-comments.ts', 'bug-attachments.ts', 'bug.presenter.ts',
    'store/bug-loader.service.ts', 'store/bug-edits.service.ts', 'store/bug-store.service.ts', 'store/bug-visibility.companion.ts',
    'store/bug-stamps.companion.ts',
    'bug.fields.ts', 'loaded-bug.ts', 'changes.ts',
  ],
  // the search criteria over comments and attachments (BUG_COMMENT_SEARCH, BUG_ATTACHMENT_SEARCH), ports bug-search
  // owns and those modules implement with their own tables
  'bug-search': ['bug-search-sources.ts'],
  // the rules of a bug change, read by Create and Update Bug (bug-write); the flag rule (BugFlagsService, exported by
  // BugRulesModule) is shared with attachments
  'bug-rules': [
    'alias.ts', 'dependency-loops.ts', 'field-permissions.ts', 'flags.ts', 'group-controls.ts', 'see-also.ts', 'update-objects.ts',
    'workflow.ts',
  ],
  // the settings mark (store/: its SQL expression, read beside the credential and the loaded bugs' stamps; its reads
  // with a companion read and how many moves this instance committed, for the caller resolver)
  audit: ['store/settings-mark.service.ts'],
  // the caller resolver (store/: credentials resolved with their companion reads, callers presumed), which webhook
  // deliveries use to resolve their owners as requests do
  auth: ['store/caller-resolver.service.ts'],
  // Bugzilla's field type numbers (bug, install); the parsing of custom field values on Create Bug
  field: ['field-type.ts', 'custom-field-input.ts'],
  // the parameter catalogue (names, defaults, kinds): info lists it, bug and group name parameters, install seeds it
  params: ['parameter-definitions.ts'],
};

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const any = (names) => `(${names.map(escape).join('|')})`;

const layerRules = LAYERS.flatMap((peers, index) => {
  const notBelow = LAYERS.slice(index).flat();
  return peers.map((name) => {
    const forbidden = notBelow.filter((other) => other !== name);
    return {
      name: 'module-layers',
      comment:
        `src/${name} is on layer ${index} of LAYERS in .dependency-cruiser.cjs: it may import only modules ` +
        `below it (${LAYERS.slice(0, index).flat().join(', ') || 'none'}). An arrow up or sideways closes or ` +
        'risks an import cycle between modules: move the shared piece down, or invert the dependency with an ' +
        'interface and an injection token declared below.',
      severity: 'error',
      from: { path: `^src/${escape(name)}/` },
      to: { path: `^src/${any(forbidden)}/` },
    };
  });
}).filter((rule) => rule.to.path !== '^src/()/');

const resourceModules = LAYERS.flat().filter((name) => !KERNEL.includes(name));
const publicPaths = [
  '^src/[^/]+/[^/]+\\.(service|module|types|tokens)\\.ts$',
  '^src/[^/]+/(entities|dto)/',
  ...Object.entries(PUBLIC).flatMap(([name, files]) => files.map((file) => `^src/${escape(name)}/${escape(file)}$`)),
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'module-has-a-layer',
      comment:
        'Every top folder of src/ is a module with a place in LAYERS (or part of the composition root) in ' +
        '.dependency-cruiser.cjs: add the new module there, above the modules it imports.',
      severity: 'error',
      from: { path: '^src/[^/]+/', pathNot: `^src/${any([...LAYERS.flat(), ...COMPOSITION_ROOT])}/` },
      to: {},
    },
    {
      name: 'common-knows-no-resource',
      comment:
        'src/common is the cross-cutting kit and knows no resource. Declare an interface and an injection token ' +
        'in common and let the resource module provide it.',
      severity: 'error',
      from: { path: '^src/common/' },
      to: { path: `^src/${any(resourceModules)}/` },
    },
    {
      name: 'database-knows-no-resource',
      comment:
        'src/database (data source, Sql handle, column vocabulary, migrations) knows no resource module; ' +
        'entities are listed by the composition root (src/entities.ts).',
      severity: 'error',
      from: { path: '^src/database/' },
      to: { path: `^src/${any(resourceModules)}/` },
    },
    {
      name: 'below-bug-never-imports-bug',
      comment:
        'The accounts modules (auth, user, group) and the catalogue modules (product, field, flag) sit below ' +
        'the bug and never import bug, bug-rules, bug-search, bug-write, comment or attachment.',
      severity: 'error',
      from: { path: '^src/(auth|user|group|product|field|flag)/' },
      to: { path: '^src/(bug|bug-rules|bug-search|bug-write|comment|attachment)/' },
    },
    {
      name: 'public-surface-only',
      comment:
        "A module reaches another only through its public surface: a top-level *.service.ts, *.module.ts, " +
        '*.types.ts or *.tokens.ts, its entities/ and dto/, or a file it declares in PUBLIC ' +
        '(.dependency-cruiser.cjs). Repositories, subfolders (update/ …) and helpers are internal: ask the ' +
        "owner's service, or move the shared piece down.",
      severity: 'error',
      from: { path: '^src/([^/]+)/', pathNot: `^src/${any([...COMPOSITION_ROOT])}/` },
      to: {
        path: '^src/[^/]+/',
        pathNot: ['^src/$1/', `^src/${any(KERNEL)}/`, `^src/${any(COMPOSITION_ROOT)}/`, ...publicPaths],
      },
    },
    {
      name: 'no-repository-outside-its-module',
      comment: "A repository is a provider of its module, never exported: other modules ask the owner's service.",
      severity: 'error',
      from: { path: '^src/([^/]+)/', pathNot: `^src/${any(COMPOSITION_ROOT)}/` },
      to: { path: '\\.repository\\.ts$', pathNot: '^src/$1/' },
    },
    {
      name: 'openapi-loaded-when-asked',
      comment:
        '@nestjs/swagger is loaded when the OpenAPI document is first asked for, not at start (issue 13): import the ' +
        'OpenAPI decorators from src/common/openapi/openapi-decorators.ts, which applies the real ones then.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(openapi\\.ts|common/openapi/)' },
      to: { path: '^node_modules/@nestjs/swagger/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-unresolvable',
      comment: 'An import that does not resolve.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'no-intra-module-cycles',
      comment: 'A file-level import cycle: a design smell (not a boundary). Break it when you pass by.',
      severity: 'warn',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Packages stay in the graph as leaves (doNotFollow), so that a rule can name one (openapi-loaded-when-asked).
    exclude: { path: '^dist/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
