import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedHook {
  headers: http.IncomingHttpHeaders;
  /** The body exactly as it arrived (the signature is over these bytes). */
  raw: string;
  body: any;
}

/**
 * A real local HTTP receiver for webhook deliveries: records every request, and answers `status` (200 unless a test
 * makes it fail) — or, while `holding`, not until `release()`.
 */
export class WebhookReceiver {
  readonly received: ReceivedHook[] = [];
  status = 200;
  holding = false;
  private readonly held: Array<() => void> = [];
  private server: http.Server | undefined;

  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/hook`;
  }

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      let raw = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (raw += chunk));
      req.on('end', () => {
        this.received.push({ headers: req.headers, raw, body: JSON.parse(raw) });
        const answer = () => res.writeHead(this.status, { 'content-type': 'text/plain' }).end(this.status === 200 ? 'ok' : 'receiver says no');
        if (this.holding) this.held.push(answer);
        else answer();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
  }

  /** Answers the requests held so far, and the next ones at once. */
  release(): void {
    this.holding = false;
    for (const answer of this.held.splice(0)) answer();
  }

  async stop(): Promise<void> {
    this.release();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  /** The requests that reached this receiver for one webhook. */
  of(webhookId: number): ReceivedHook[] {
    return this.received.filter((r) => r.body.webhook_id === webhookId);
  }
}

/** Polls until `check` holds (deliveries are asynchronous), failing with `what` after `timeoutMs`. */
export async function eventually(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
