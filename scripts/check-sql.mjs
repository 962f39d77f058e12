#!/usr/bin/env node
// No SQL outside repositories (issue 8, "Done when"; docs/data-layer.md): `npm run check:sql`, run by `npm test`.
//
// Only a module's repository names its tables. This check reads every TypeScript file under src/ except
//   - repositories: `*.repository.ts`;
//   - src/database/ (the Sql handle, the column vocabulary, the data source and the migrations);
//   - unit specs (`*.spec.ts`): they assert the SQL a repository generates (the quoting of MySQL 8's reserved
//     words is proven that way) and have no database to set up,
// and fails on any of
//   - sql-text:     a string or template literal that reads as SQL: it starts with a statement
//                   (SELECT, INSERT INTO, UPDATE … SET, DELETE FROM, REPLACE INTO, CREATE/ALTER/DROP TABLE|INDEX,
//                   WITH … AS), or holds a clause naming a table or column (`FROM bugs`, `JOIN profiles`,
//                   `WHERE bug_id =`, `ORDER BY`, `GROUP BY`). Keywords are matched in capitals, as the house
//                   writes SQL, so prose ("select a product") does not count;
//   - sql-handle:   a call of `.all(` `.one(` `.run(` or `.repository(` on a
//                   `Sql` or `ReadSql` handle (src/database/sql.ts), decided by the type checker, not by the
//                   variable's name;
//   - query-call:   a `.createQueryBuilder(` call, or a `.query(` call on a TypeORM object (data source, entity
//                   manager, query runner, repository);
//   - inject-repository: `@InjectRepository(…)` (a TypeORM repository belongs in the module's repository).
//
// It also reads every TypeScript file under test/ (issue 8: "Tests then set up data through the services or
// repositories, never by raw SQL") except test/support/test-database.ts (it creates and drops the throwaway
// MariaDB/MySQL database on the server, before any app exists: the harness's counterpart of src/database/), and
// fails there on
//   - sql-text, as above;
//   - sql-handle for the raw calls only (`.all(` `.one(` `.run(`): a test
//     reaches tables through `t.db.read.repository(Entity)` / `tx.repository(Entity)`, which is therefore allowed;
//   - query-call for `.query(` on a TypeORM object (raw SQL); the query builder is allowed in tests.
//
// ALLOWLIST is the way to accept a file for a while (path → reason); it is meant to be empty but for the one test
// that writes raw SQL on purpose.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** @type {Record<string, string>} file (relative to the repository) → why it may hold SQL for now */
const ALLOWLIST = {
  'test/e2e/change-mark.e2e-spec.ts': 'proves that a raw write (Sql.run) moves the settings mark',
};

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const rel = (file) => path.relative(root, file).split(path.sep).join('/');

const EXEMPT = [/^src\/database\//, /\.repository\.ts$/, /\.spec\.ts$/];
const inScope = (file) => file.startsWith('src/') && file.endsWith('.ts') && !file.endsWith('.d.ts') && !EXEMPT.some((re) => re.test(file));
const TEST_EXEMPT = [/^test\/support\/test-database\.ts$/];
const inTestScope = (file) => file.startsWith('test/') && file.endsWith('.ts') && !file.endsWith('.d.ts') && !TEST_EXEMPT.some((re) => re.test(file));

const IDENT = '[`"]?[a-z_][a-z0-9_]*[`"]?';
const STATEMENT = new RegExp(
  '^\\s*(' +
    [
      'SELECT\\b',
      'INSERT\\s+(IGNORE\\s+)?INTO\\b',
      `UPDATE\\s+${IDENT}(\\s+\\w+)?\\s+SET\\b`,
      'DELETE\\s+FROM\\b',
      'REPLACE\\s+INTO\\b',
      '(CREATE|ALTER|DROP)\\s+(UNIQUE\\s+)?(TABLE|INDEX)\\b',
      'WITH\\s+(RECURSIVE\\s+)?\\w+\\s+AS\\b',
    ].join('|') +
    ')',
);
const CLAUSE = new RegExp(
  [
    `\\b(FROM|JOIN|INTO)\\s+${IDENT}`,
    `\\bWHERE\\s+[a-z_][a-z0-9_.]*\\s*(=|<|>|!=|IN\\b|IS\\b|LIKE\\b|NOT\\b|BETWEEN\\b)`,
    '\\b(ORDER|GROUP)\\s+BY\\b',
  ].join('|'),
);
const SQL_HANDLE_METHODS = new Set(['all', 'one', 'run', 'repository']);
const RAW_SQL_HANDLE_METHODS = new Set(['all', 'one', 'run']);

function load() {
  const configPath = path.join(root, 'tsconfig.json');
  const config = ts.readConfigFile(configPath, ts.sys.readFile);
  if (config.error) throw new Error(ts.flattenDiagnosticMessageText(config.error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  return ts.createProgram({ rootNames: parsed.fileNames, options: { ...parsed.options, noEmit: true } });
}

/** The text a literal contributes, template spans joined by a placeholder. */
function literalText(node) {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) return node.head.text + node.templateSpans.map((span) => ' ? ' + span.literal.text).join('');
  return null;
}

/** The handle types of src/database/sql.ts: a transaction's `Sql` and the read-only `ReadSql` (Db.read). */
const SQL_HANDLE_TYPES = new Set(['Sql', 'ReadSql']);

function isSqlHandle(checker, expression) {
  const type = checker.getTypeAtLocation(expression);
  const types = type.isUnion() ? type.types : [type];
  return types.some((t) => {
    const symbol = t.getSymbol() ?? t.aliasSymbol;
    if (!symbol || !SQL_HANDLE_TYPES.has(symbol.getName())) return false;
    return (symbol.getDeclarations() ?? []).some((d) => rel(d.getSourceFile().fileName) === 'src/database/sql.ts');
  });
}

function isTypeOrmObject(checker, expression) {
  const type = checker.getTypeAtLocation(expression);
  const types = type.isUnion() ? type.types : [type];
  return types.some((t) =>
    (t.getSymbol()?.getDeclarations() ?? []).some((d) => /[\\/]node_modules[\\/]typeorm[\\/]/.test(d.getSourceFile().fileName)),
  );
}

function check(program) {
  const checker = program.getTypeChecker();
  const findings = [];
  for (const source of program.getSourceFiles()) {
    const file = rel(source.fileName);
    const isTest = inTestScope(file);
    if (!isTest && !inScope(file)) continue;
    const handleMethods = isTest ? RAW_SQL_HANDLE_METHODS : SQL_HANDLE_METHODS;
    const report = (node, kind, detail) => {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      findings.push({ file, line: line + 1, kind, detail: detail.replace(/\s+/g, ' ').trim().slice(0, 90) });
    };
    const visit = (node) => {
      const text = literalText(node);
      if (text !== null) {
        if (STATEMENT.test(text) || CLAUSE.test(text)) report(node, 'sql-text', text);
        if (ts.isTemplateExpression(node)) {
          node.templateSpans.forEach((span) => visit(span.expression));
          return;
        }
      }
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
        const method = node.expression.name.text;
        if (method === 'createQueryBuilder') {
          if (!isTest) report(node, 'query-call', `.${method}(`);
        } else if (method === 'query' && isTypeOrmObject(checker, node.expression.expression)) report(node, 'query-call', `.${method}(`);
        else if (handleMethods.has(method) && isSqlHandle(checker, node.expression.expression)) {
          report(node, 'sql-handle', `${node.expression.expression.getText(source)}.${method}(`);
        }
      }
      if (!isTest && ts.isDecorator(node) && ts.isCallExpression(node.expression) && node.expression.expression.getText(source) === 'InjectRepository') {
        report(node, 'inject-repository', node.getText(source));
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return findings;
}

const findings = check(load());
const byFile = new Map();
for (const f of findings) byFile.set(f.file, [...(byFile.get(f.file) ?? []), f]);
const failing = [...byFile.keys()].filter((file) => !(file in ALLOWLIST)).sort();
const allowed = [...byFile.keys()].filter((file) => file in ALLOWLIST).sort();
const stale = Object.keys(ALLOWLIST).filter((file) => !byFile.has(file));

const verbose = process.argv.includes('--verbose') || process.argv.includes('-v');
for (const file of failing) {
  const list = byFile.get(file);
  console.log(`${file}: ${list.length}`);
  if (verbose) for (const f of list) console.log(`  ${f.line}  ${f.kind}  ${f.detail}`);
}
for (const file of allowed) console.log(`allowed  ${file}: ${byFile.get(file).length} (${ALLOWLIST[file]})`);
for (const file of stale) console.log(`stale allowlist entry (no SQL left, remove it): ${file}`);

if (failing.length || stale.length) {
  const count = failing.reduce((n, file) => n + byFile.get(file).length, 0);
  console.error(
    `\ncheck:sql: ${count} finding(s) in ${failing.length} file(s) outside repositories` +
      (stale.length ? `, ${stale.length} stale allowlist entr${stale.length === 1 ? 'y' : 'ies'}` : '') +
      '. Move the statement into the owning module\'s *.repository.ts (docs/data-layer.md); in test/, set up and read' +
      ' data through the API, a service or the entity\'s repository.' +
      (verbose ? '' : ' Run `npm run check:sql -- --verbose` for the lines.'),
  );
  process.exit(1);
}
console.log(`check:sql: no SQL outside repositories${allowed.length ? ` (${allowed.length} allowlisted file(s))` : ''}.`);
