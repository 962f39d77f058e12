import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import { once } from 'node:events';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { ADMIN_API_KEY } from '../support/test-app.js';
import { buildService, servicePort, startService } from '../support/service-process.js';

/** Whether something accepts connections on the port. */
const listening = (port: number) => new Promise<boolean>((resolve) => {
  const socket = net.connect(port, '127.0.0.1', () => { socket.destroy(); resolve(true); });
  socket.on('error', () => resolve(false));
});

/**
 * SIGTERM stops the built service gracefully (issue 14): the request in flight completes, new connections are
 * refused, the port is freed and the process exits 0.
 */
describe('graceful stop on SIGTERM', () => {
  let database: TestDatabase;
  let service: ChildProcess | undefined;
  const port = servicePort() + 1;

  beforeAll(buildService);
  beforeEach(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    service?.kill('SIGKILL');
    await database.drop();
  });

  it('finishes the request in flight, frees the port and exits 0', async () => {
    service = await startService({ DATABASE_URL: database.url, PORT: String(port), TRACKER_MAIL_URL: 'off' });
    const exited = once(service, 'exit');

    // A slow request: Create Bug whose body arrives in two halves, the signal in between.
    const body = JSON.stringify({ product: 'TestProduct', component: 'TestComponent', version: 'unspecified', summary: 'filed during the stop' });
    const request = http.request({ host: '127.0.0.1', port, method: 'POST', path: `/rest/bug?Tracker_api_key=${ADMIN_API_KEY}`, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } });
    const response = once(request, 'response') as Promise<[http.IncomingMessage]>;
    request.write(body.slice(0, 20));
    await sleep(300);
    service.kill('SIGTERM');
    await sleep(300);
    expect(service.exitCode).toBeNull();
    request.end(body.slice(20));

    const [res] = await response;
    let text = '';
    for await (const chunk of res) text += String(chunk);
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(text)).toEqual({ id: expect.any(Number) });

    const [code, signal] = await exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(await listening(port)).toBe(false);
  });
});
