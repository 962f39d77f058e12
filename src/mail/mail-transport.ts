import fs from 'node:fs/promises';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import type { AppConfig } from '../config/app-config.js';

/** One outbox row ready to go out. `headers` as stored: From, threading headers and X-Tracker-* ones. */
export interface OutgoingMail {
  id: number;
  to: string;
  subject: string;
  body: string;
  headers: Record<string, string>;
  /** When the change happened (DB format, UTC): the message's Date, even when a retry sends it later. */
  createdAt: string;
}

/** Where mail goes: an SMTP server, .eml files under `<dataDir>/mail/`, or nowhere (`TRACKER_MAIL_URL=off`). */
export interface MailTransport {
  readonly kind: 'smtp' | 'files' | 'off';
  /** Resolves once the message is accepted (by the server, or written); rejects with the reason otherwise. */
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

// A server that does not answer must not hold the worker for minutes (nodemailer's defaults are 2 min / 10 min).
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/** The headers the outbox stores by name that nodemailer takes as message options. */
function messageOptions(mail: OutgoingMail) {
  const { From: from, 'Message-ID': messageId, 'In-Reply-To': inReplyTo, References: references, ...headers } = mail.headers;
  return {
    from,
    to: mail.to,
    subject: mail.subject,
    text: mail.body,
    date: new Date(`${mail.createdAt.replace(' ', 'T')}Z`),
    ...(messageId ? { messageId } : {}),
    ...(inReplyTo ? { inReplyTo } : {}),
    ...(references ? { references } : {}),
    headers,
  };
}

/** `YYYYMMDD-hhmmss-<id>.eml`: sorts by time, unique by outbox id. */
export function emlFileName(mail: OutgoingMail): string {
  return `${mail.createdAt.replace(/[-:]/g, '').replace(' ', '-')}-${mail.id}.eml`;
}

/**
 * A nodemailer transporter made with the first message: nodemailer (some forty modules) is loaded then, so that a
 * start that sends nothing does not pay for it (issue 13: cold start).
 */
function transporterOnFirstUse(options: Parameters<typeof import('nodemailer').createTransport>[0]): { get(): Promise<Transporter>; close(): void } {
  let made: Promise<Transporter> | undefined;
  return {
    get: () => (made ??= import('nodemailer').then(({ createTransport }) => createTransport(options))),
    // A transporter that could not be made has nothing to close (its error went to the send that asked for it).
    close: () => void made?.then((transporter) => transporter.close(), () => undefined),
  };
}

export function createMailTransport(config: Pick<AppConfig, 'mailUrl' | 'dataDir'>): MailTransport {
  if (config.mailUrl === 'off') {
    return { kind: 'off', send: async () => undefined, close: () => undefined };
  }
  if (config.mailUrl) {
    // Settings in the URL's query (e.g. ?ignoreTLS=true, ?tls.rejectUnauthorized=false) win over these defaults.
    const smtp = transporterOnFirstUse({ url: config.mailUrl, ...SMTP_TIMEOUTS });
    return {
      kind: 'smtp',
      send: async (mail) => {
        await (await smtp.get()).sendMail(messageOptions(mail));
      },
      close: () => smtp.close(),
    };
  }
  // The embedded default: the raw message (as an SMTP server would receive it) written as a file.
  const directory = path.join(config.dataDir, 'mail');
  const stream = transporterOnFirstUse({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    kind: 'files',
    send: async (mail) => {
      const info = await (await stream.get()).sendMail(messageOptions(mail));
      await fs.mkdir(directory, { recursive: true });
      const file = path.join(directory, emlFileName(mail));
      // Written under a temporary name and renamed, so that a reader never sees half a message.
      await fs.writeFile(`${file}.tmp`, info.message as Buffer);
      await fs.rename(`${file}.tmp`, file);
    },
    close: () => stream.close(),
  };
}
