import { Writable } from 'node:stream';
import type { LoggerService } from '@nestjs/common';
import { pino, type Logger } from 'pino';
import type { LogLevel } from '../../config/app-config.js';
import { redactCredentials } from '../http/redact.js';

export type { LogLevel };

/**
 * The service's one log (issue 14): JSON lines through pino (Fastify's logger), one object per event, `msg` redacted
 * of credentials. On a terminal the same events are printed as readable lines instead.
 */
export function createLog(level: LogLevel, output: NodeJS.WritableStream = process.stdout): Logger {
  const destination = (output as { isTTY?: boolean }).isTTY ? readableLines(output) : output;
  return pino({ level, base: undefined, formatters: { level: (label) => ({ level: label }) }, hooks: { logMethod: redactingArguments } }, destination);
}

/** Every string argument of a log call (the message and its interpolations) is redacted of credentials. */
function redactingArguments(this: Logger, args: unknown[], method: (...args: unknown[]) => void): void {
  method.apply(this, args.map((arg) => (typeof arg === 'string' ? redactCredentials(arg) : arg)));
}

/** `hh:mm:ss level msg key=value …` for people reading a terminal. */
function readableLines(output: NodeJS.WritableStream): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      const { time, level, msg, ...fields } = JSON.parse(chunk.toString()) as Record<string, unknown>;
      const extra = Object.entries(fields).map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`).join(' ');
      const clock = new Date(Number(time)).toISOString().slice(11, 19);
      output.write(`${clock} ${String(level).toUpperCase().padEnd(5)} ${String(msg ?? '')}${extra ? ` ${extra}` : ''}\n`);
      done();
    },
  });
}

/** Nest's own messages at debug: the route table it prints at start is chatter, not news. */
const CHATTY_CONTEXTS: ReadonlySet<string> = new Set(['RoutesResolver', 'RouterExplorer', 'InstanceLoader', 'NestFactory']);

/** Nest's logger writing into the same pino log, so that every line of the process has one shape. */
export class NestLog implements LoggerService {
  constructor(private readonly pinoLog: Logger) {}

  log(message: unknown, context?: string): void {
    if (context && CHATTY_CONTEXTS.has(context)) this.pinoLog.debug({ context }, String(message));
    else this.pinoLog.info({ context }, String(message));
  }
  error(message: unknown, stackOrContext?: string, context?: string): void {
    const stack = context !== undefined || stackOrContext?.includes('\n') ? stackOrContext : undefined;
    this.pinoLog.error({ context: context ?? (stack === undefined ? stackOrContext : undefined), ...(stack ? { stack: redactCredentials(stack) } : {}) }, String(message));
  }
  warn(message: unknown, context?: string): void {
    this.pinoLog.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string): void {
    this.pinoLog.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string): void {
    this.pinoLog.trace({ context }, String(message));
  }
}
