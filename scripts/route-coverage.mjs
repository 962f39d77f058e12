// `node scripts/route-coverage.mjs BASE_URL ROUTE_LOG`: which routes of the instance's OpenAPI document no request in
// ROUTE_LOG ("METHOD /path" lines, written by the e2e suite under E2E_ROUTE_LOG) reached. Exits 1 if any.
import fs from 'node:fs';

const [base, logFile] = process.argv.slice(2);
const document = await (await fetch(`${base}/rest/openapi.json`)).json();
const hits = new Set(fs.readFileSync(logFile, 'utf8').split('\n').filter(Boolean));
const templateToRegExp = (template) => new RegExp(`^${template.replace(/[.+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}/?$`);
const routes = Object.entries(document.paths).flatMap(([template, operations]) =>
  Object.keys(operations).filter((m) => ['get', 'post', 'put', 'delete', 'patch'].includes(m)).map((method) => ({ method: method.toUpperCase(), template })));
const reached = (route) => {
  const pattern = templateToRegExp(route.template);
  for (const hit of hits) {
    const [method, pathname] = hit.split(' ');
    if ((method === route.method || (route.method === 'GET' && method === 'HEAD')) && pattern.test(pathname)) return true;
  }
  return false;
};
const missing = routes.filter((route) => !reached(route));
console.log(`Route coverage: ${routes.length - missing.length} of ${routes.length} documented routes reached by the run.`);
for (const route of missing) console.log(`  not reached: ${route.method} ${route.template}`);
process.exit(missing.length ? 1 : 0);
