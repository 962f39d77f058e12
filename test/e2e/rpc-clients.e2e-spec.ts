import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ADMIN_API_KEY, ADMIN_LOGIN, ADMIN_PASSWORD, startTestApp, type TestApp } from '../support/test-app.js';
import { ok } from '../support/catalogue-fixtures.js';
import { DEFAULT_BUG, fileBug } from './bug-fixtures.js';

const run = promisify(execFile);

/**
 * Issue 45: the clients that speak XML-RPC only, as a site runs them against …/xmlrpc.cgi: python-bugzilla 3.2 (its
 * `bugzilla` command and the library) and pybugz 0.13 (`bugz`), Debian's packages, installed by
 * scripts/rpc-clients.sh when missing. What they did is read back over REST.
 */
describe('XML-RPC clients: python-bugzilla 3.2 and pybugz 0.13', () => {
  let t: TestApp;
  let home: string;
  let url: string;
  let seen: number;

  beforeAll(async () => {
    await run('bash', [path.resolve('scripts/rpc-clients.sh')], { timeout: 300_000 });
    t = await startTestApp();
    url = `${t.baseUrl}/xmlrpc.cgi`;
    // Each client keeps its configuration and login token under HOME: one of the test's own.
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'rpc-clients-'));
    seen = await fileBug(t, { summary: 'Widget crashes on startup', description: 'Steps: start the widget.' });
  }, 320_000);
  afterAll(async () => {
    await t?.close();
    if (home) fs.rmSync(home, { recursive: true, force: true });
  });

  const env = () => ({ PATH: '/usr/bin:/bin', HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_CACHE_HOME: path.join(home, '.cache'), LANG: 'C.UTF-8' });
  /** Runs a client; `input` is its standard input (`bugzilla attach` reads the file there when it is no terminal). */
  async function client(command: string, args: string[], input = ''): Promise<string> {
    try {
      const running = run(command, args, { env: env(), timeout: 60_000 });
      running.child.stdin?.end(input);
      const { stdout } = await running;
      return stdout;
    } catch (error) {
      const failed = error as { stdout?: string; stderr?: string; message: string };
      throw new Error(`${command} ${args.join(' ')} failed: ${failed.message}\n${failed.stdout ?? ''}\n${failed.stderr ?? ''}`, { cause: error });
    }
  }
  const bugzillaCommand = (input: string, ...args: string[]) => client('bugzilla', ['--bugzilla', url, '--username', ADMIN_LOGIN, '--password', ADMIN_PASSWORD, ...args], input);
  const bugzilla = (...args: string[]) => bugzillaCommand('', ...args);
  const bugz = (...args: string[]) => client('bugz', ['-b', url, '-u', ADMIN_LOGIN, '-p', ADMIN_PASSWORD, ...args]);
  /** The ids an `--ids` output lists (the command says first how it logged in). */
  const idsOf = (output: string) => output.split('\n').filter((line) => /^\d+$/.test(line));
  const bug = async (id: number) => ok(await t.get(`/bug/${id}`, { key: ADMIN_API_KEY })).bugs[0];

  describe('the bugzilla command', () => {
    it('files, queries, changes, comments on and attaches to a bug, and lists products (info)', async () => {
      const created = await bugzilla('new', '--product', DEFAULT_BUG.product, '--component', DEFAULT_BUG.component, '--version', DEFAULT_BUG.version,
        '--summary', 'Filed with the bugzilla command', '--comment', 'Over XML-RPC.', '--priority', 'High', '--ids');
      const id = Number(idsOf(created)[0]);
      expect(id).toBeGreaterThan(seen);
      expect(await bug(id)).toMatchObject({ summary: 'Filed with the bugzilla command', priority: 'High', product: DEFAULT_BUG.product });

      const found = await bugzilla('query', '--product', DEFAULT_BUG.product, '--summary', 'bugzilla command', '--ids');
      expect(idsOf(found)).toEqual([String(id)]);

      await bugzilla('modify', String(id), '--status', 'IN_PROGRESS', '--comment', 'Working on it.');
      expect((await bug(id)).status).toBe('IN_PROGRESS');

      const attached = await bugzillaCommand('notes from the bugzilla command\n', 'attach', '--file', 'notes.txt', '--description', 'Notes', '--type', 'text/plain', String(id));
      expect(attached).toMatch(/Created attachment \d+ on bug/);
      const attachments = ok(await t.get(`/bug/${id}/attachment`, { key: ADMIN_API_KEY })).bugs[String(id)];
      expect(attachments.map((a: { summary: string; data: string }) => [a.summary, Buffer.from(a.data, 'base64').toString()])).toEqual([['Notes', 'notes from the bugzilla command\n']]);
      const comments = ok(await t.get(`/bug/${id}/comment`, { key: ADMIN_API_KEY })).bugs[String(id)].comments;
      expect(comments.map((c: { text: string }) => c.text)).toEqual(['Over XML-RPC.', 'Working on it.', expect.stringMatching(/^Created attachment \d+/)]);

      const products = await bugzilla('info', '--products');
      expect(products.split('\n')).toContain(DEFAULT_BUG.product);
      const components = await bugzilla('info', '--components', DEFAULT_BUG.product);
      expect(components.split('\n')).toContain(DEFAULT_BUG.component);
    }, 120_000);
  });

  describe('the python-bugzilla library', () => {
    it('reads, searches, files, updates, comments and attaches through its own calls', async () => {
      const script = `
import sys, io, json, bugzilla
bz = bugzilla.Bugzilla(sys.argv[1], user=sys.argv[2], password=sys.argv[3], force_rest=False)
assert bz.is_xmlrpc, "XML-RPC expected"
out = {"version": bz.bz_ver_major, "logged_in": bz.logged_in}
b = bz.getbug(int(sys.argv[4]))
out["summary"] = b.summary
out["found"] = [x.id for x in bz.query(bz.build_query(product=sys.argv[5], short_desc="crashes on startup"))]
created = bz.createbug(bz.build_createbug(product=sys.argv[5], component=sys.argv[6], version=sys.argv[7], summary="Filed by the library", description="Library description"))
out["created"] = created.id
bz.update_bugs([created.id], bz.build_update(status="RESOLVED", resolution="FIXED", comment="Fixed by the library"))
f = io.BytesIO(bytes(range(256)))
out["attachment"] = bz.attachfile(created.id, f, "Binary bytes", file_name="bytes.bin", content_type="application/octet-stream")
created.refresh()
out["status"] = [created.status, created.resolution]
out["comments"] = [c["text"] for c in created.getcomments()]
out["attachments"] = [a["file_name"] for a in created.get_attachments()]
bz.logout()
print(json.dumps(out))
`;
      const answer = JSON.parse(await client('/usr/bin/python3', ['-c', script, url, ADMIN_LOGIN, ADMIN_PASSWORD, String(seen), DEFAULT_BUG.product, DEFAULT_BUG.component, DEFAULT_BUG.version]));
      expect(answer).toMatchObject({
        version: 5, logged_in: true, summary: 'Widget crashes on startup', found: [seen],
        status: ['RESOLVED', 'FIXED'], comments: ['Library description', 'Fixed by the library', expect.stringMatching(/^Created attachment \d+/)], attachments: ['bytes.bin'],
      });
      const stored = ok(await t.get(`/bug/attachment/${answer.attachment}`, { key: ADMIN_API_KEY })).attachments[String(answer.attachment)];
      expect(Buffer.from(stored.data, 'base64')).toEqual(Buffer.from(Array.from({ length: 256 }, (_, i) => i)));
    }, 120_000);
  });

  describe('bugz (pybugz 0.13)', () => {
    it('gets, searches, posts, modifies, attaches and reads an attachment', async () => {
      const got = await bugz('get', String(seen));
      expect(got).toMatch(/Title\s*: Widget crashes on startup/);
      expect(got).toMatch(/Steps: start the widget\./);

      const searched = await bugz('search', 'crashes');
      expect(searched).toMatch(new RegExp(`\\b${seen}\\b.*Widget crashes on startup`));

      const posted = await bugz('post', '--batch', '--product', DEFAULT_BUG.product, '--component', DEFAULT_BUG.component, '--version', DEFAULT_BUG.version,
        '-t', 'Filed with bugz', '-d', 'pybugz description', '--priority', 'Low');
      const id = Number(/Bug (\d+) submitted/.exec(posted)?.[1]);
      expect(await bug(id)).toMatchObject({ summary: 'Filed with bugz', priority: 'Low' });

      await bugz('modify', String(id), '-s', 'IN_PROGRESS', '-c', 'pybugz comment');
      expect((await bug(id)).status).toBe('IN_PROGRESS');

      const file = path.join(home, 'pybugz.txt');
      fs.writeFileSync(file, 'hello from pybugz\n');
      await bugz('attach', String(id), file, '-t', 'A text attachment', '-d', 'Attaching a file.', '-c', 'text/plain');
      const attachments = ok(await t.get(`/bug/${id}/attachment`, { key: ADMIN_API_KEY })).bugs[String(id)];
      expect(attachments.map((a: { summary: string; data: string }) => [a.summary, Buffer.from(a.data, 'base64').toString()])).toEqual([['A text attachment', 'hello from pybugz\n']]);
      const comments = ok(await t.get(`/bug/${id}/comment`, { key: ADMIN_API_KEY })).bugs[String(id)].comments;
      expect(comments.map((c: { text: string }) => c.text)).toEqual(['pybugz description', 'pybugz comment', expect.stringMatching(/^Created attachment \d+\n\nAttaching a file\.$/)]);

      const viewed = await bugz('attachment', '--view', String(attachments[0].id));
      expect(viewed).toContain('hello from pybugz');
    }, 120_000);
  });
});
