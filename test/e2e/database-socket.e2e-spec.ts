import { ADMIN_API_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { describeWhen, onDialect } from '../support/conditions.js';
import { fileBug } from './bug-fixtures.js';

/** A server on the same host through its Unix socket: MariaDB/MySQL only, in-process (it starts its own instances). */
const onServerDatabase = describeWhen(onDialect('mysql', 'only a database server has a Unix socket'));

onServerDatabase("DATABASE_URL with socketPath (the server's Unix socket)", () => {
  let overTcp: TestApp;
  let overSocket: TestApp;

  beforeAll(async () => {
    overTcp = await startTestApp();
    overSocket = await startTestApp({ DATABASE_URL: await overTcp.database.socketUrl() }, { sharing: overTcp });
  });
  afterAll(async () => {
    await overSocket?.close();
    await overTcp?.close();
  });

  it('serves reads and writes through the socket, on the same data as an instance over TCP', async () => {
    const fromTcp = await fileBug(overTcp, { summary: 'filed over TCP' });
    const fromSocket = await fileBug(overSocket, { summary: 'filed over the socket' });
    expect((await overSocket.get(`/bug/${fromTcp}`, { key: ADMIN_API_KEY })).body.bugs[0].summary).toBe('filed over TCP');
    expect((await overTcp.get(`/bug/${fromSocket}`, { key: ADMIN_API_KEY })).body.bugs[0].summary).toBe('filed over the socket');
    // The server names a socket's client `localhost`, a TCP client by its address and port.
    const hosts = await overTcp.database.connectionHosts();
    expect(hosts).toContain('localhost');
    expect(hosts.some((host) => /:\d+$/.test(host))).toBe(true);
  });
});
