import { request as httpRequest } from 'node:http';
import { ADMIN_API_KEY, REMOTE_BASE_URL, startTestApp, type TestApp } from '../support/test-app.js';
import { inProcessIt, loginNamed, named } from '../support/in-process.js';
import { fileBug, restrictBugs } from './bug-fixtures.js';
import { FuzzGenerator, routesOf, type FuzzRequest } from '../support/fuzz.js';

const SEED = Number(process.env.FUZZ_SEED ?? 0x5eed1e);
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 3000);
/** The run stops here whatever is left (CI's time is bounded); the count reached is checked below. */
const BUDGET_MS = 45_000;
const PARALLEL = 4;

interface Answer {
  status: number;
  contentType: string;
  text: string;
}

/** Sends a request byte for byte (fetch would re-encode invalid UTF-8 and refuse some methods with a body). */
function send(baseUrl: string, req: FuzzRequest): Promise<Answer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const body = req.body === undefined ? undefined : Buffer.isBuffer(req.body) ? req.body : Buffer.from(req.body);
    const headers = { ...req.headers, ...(body ? { 'content-length': String(body.length) } : {}) };
    const outgoing = httpRequest({ hostname, port, method: req.method, path: req.url, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** What is wrong with an answer, if anything: a status of 500 or more, or an error outside the envelope. */
function faultOf(req: FuzzRequest, answer: Answer): string | undefined {
  if (answer.status >= 500) return `status ${answer.status}`;
  if (answer.status < 400) return undefined;
  if (req.headers.accept === 'text/html' && answer.contentType.startsWith('text/html')) return undefined;
  let json = answer.text;
  const jsonp = /^\/\*\*\/[\w.[\]$]+\(([\s\S]*)\)$/.exec(answer.text);
  if (jsonp && answer.contentType.startsWith('text/javascript')) json = jsonp[1];
  else if (!answer.contentType.startsWith('application/json')) return `error with content-type ${answer.contentType}`;
  let body: any;
  try {
    body = JSON.parse(json);
  } catch {
    return 'error body is not JSON';
  }
  const envelope = body?.error === true && Number.isInteger(body.code) && typeof body.message === 'string' && typeof body.documentation === 'string';
  return envelope ? undefined : 'error outside the envelope {error, code, message, documentation}';
}

function show(req: FuzzRequest): string {
  const body = req.body === undefined ? '' : Buffer.isBuffer(req.body) ? req.body.toString('hex') : req.body;
  return `${req.method} ${req.url.slice(0, 500)} headers=${JSON.stringify(req.headers)} body=${body.slice(0, 500)}`;
}

/** Sends `count` generated requests, PARALLEL at a time, until done or the deadline; answers the faults found. */
async function run(t: TestApp, generator: FuzzGenerator, count: number, deadline: number, statuses: Map<number, number>): Promise<{ sent: number; failures: string[] }> {
  const requests = Array.from({ length: count }, () => generator.next());
  const failures: string[] = [];
  let sent = 0;
  let next = 0;
  const worker = async () => {
    while (next < requests.length && Date.now() < deadline && failures.length < 10) {
      const index = next++;
      const req = requests[index];
      let fault: string | undefined;
      let answer: Answer | undefined;
      try {
        answer = await send(t.baseUrl, req);
        fault = faultOf(req, answer);
      } catch (err) {
        fault = `no answer: ${(err as Error).message}`;
      }
      sent++;
      if (answer) statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      if (fault) failures.push(`seed ${generator.seed} request #${index}: ${fault}\n  request: ${show(req)}\n  response: ${answer?.status} ${answer?.contentType} ${answer?.text.slice(0, 500)}`);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  if (failures.length) console.error(failures.join('\n'));
  return { sent, failures };
}

describe('fuzzer: malformed requests to every route', () => {
  let t: TestApp;
  const admin = { key: ADMIN_API_KEY };
  let bug: number;
  let plain: { id: number; login: string; apiKey: string };
  let routes: ReturnType<typeof routesOf>;
  let realValues: string[];
  /** Shared by the runs below: their time together is bounded. */
  let deadline: number;
  const statuses = new Map<number, number>();

  beforeAll(async () => {
    // A body limit the generator's huge bodies (300 KB) exceed, so that refusing them is tested cheaply; a running
    // instance keeps its own.
    t = await startTestApp(REMOTE_BASE_URL ? {} : { TRACKER_MAX_BODY_BYTES: String(256 * 1024) });
    // Data the first run must leave as it is: a bug with a comment and a keyword, restricted to a group the fuzzing
    // user is not in, the product and the administrator's account. The fuzzing user edits bugs it can see, so that
    // the checks behind authentication and permissions are reached too.
    const keyword = named('fuzzed');
    expect((await t.post('/keyword', { name: keyword, description: 'before the run' }, admin)).status).toBe(200);
    bug = await fileBug(t, { summary: 'before the fuzz', description: 'kept as is', keywords: [keyword] });
    await restrictBugs(t, named('fuzz-secret'), [bug]);
    plain = await t.createUser(loginNamed('fuzzer'), { groups: ['editbugs', 'canconfirm'] });
    const document = (await t.get('/openapi.json')).body;
    // The fuzzer keeps its own way in: it never revokes its key nor disables its account (both would only turn
    // every later request into a 401).
    routes = routesOf(document).map((route) => ({ ...route, names: route.names.filter((name) => name !== 'revoked' && name !== 'login_denied_text') }));
    // No administrator's login among them: against one shared server (the remote run), the garbage passwords drawn
    // with it locked the administrator out (5.0's login-failure limit) for the suite's other files, depending on
    // their order. The fuzzer's own login takes the part: a wrong password for a real account all the same.
    realValues = [String(bug), '1', '2', '3', 'TestProduct', 'TestComponent', 'unspecified', plain.login, keyword, 'bug_severity', 'fuzz-alias', '0'];
    deadline = Date.now() + BUDGET_MS;
  });
  afterAll(() => t.close());

  inProcessIt('the app serves every route of the OpenAPI document (reads the app\'s routes)', () => {
    // The document lists the routes the Fastify instance serves (all of them when this was written, by
    // printRoutes, apart from the document's own two); each one listed must be served.
    const fastify = t.app.getHttpAdapter().getInstance();
    expect(routes.filter((route) => !fastify.hasRoute({ method: route.method, url: route.path.replace(/\{([^}]+)\}/g, ':$1') }))).toEqual([]);
  });

  it(`${REQUESTS} seeded requests (seed ${SEED}) as nobody, with garbage credentials and as a bug editor: no 5xx, every error in the envelope, nothing created before changed`, async () => {
    const snapshot = async () => ({
      // The update token is derived from the time of the read, not from the bug.
      bug: (await t.get(`/bug/${bug}`, { ...admin, query: { include_fields: '_all', exclude_fields: 'update_token' } })).text,
      comments: (await t.get(`/bug/${bug}/comment`, admin)).text,
      history: (await t.get(`/bug/${bug}/history`, admin)).text,
      admin: (await t.get('/user/1', admin)).text,
      product: (await t.get('/product', { ...admin, query: { names: 'TestProduct' } })).text,
    });
    const before = await snapshot();
    expect(routes.length).toBeGreaterThan(40);

    const first = await run(t, new FuzzGenerator(SEED, routes, realValues, plain.apiKey), REQUESTS, deadline, statuses);
    expect(first.failures).toEqual([]);
    // The bound is generous: a run that stops well short of its requests tests too little.
    expect(first.sent).toBeGreaterThanOrEqual(Math.min(REQUESTS, 1500));
    expect((await t.get('/version')).status).toBe(200);
    expect(await snapshot()).toEqual(before);
    if (process.env.FUZZ_VERBOSE) console.log(`sent ${first.sent}`);
  }, 120_000);

  // Then as the administrator, whom every route lets through to its checks: the run may change anything now, the
  // administrator's account and the parameters included, which an instance other files share must not suffer.
  inProcessIt(`${REQUESTS / 2} seeded requests (seed ${SEED + 1}) as the administrator: no 5xx, every error in the envelope (changes any data)`, async () => {
    const second = await run(t, new FuzzGenerator(SEED + 1, routes, realValues, ADMIN_API_KEY), REQUESTS / 2, deadline, statuses);
    expect(second.failures).toEqual([]);
    expect((await t.get('/version')).status).toBe(200);
    if (process.env.FUZZ_VERBOSE) console.log(`sent ${second.sent}`, [...statuses].sort((a, b) => a[0] - b[0]));
  }, 120_000);
});
