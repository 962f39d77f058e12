// The admin command line: `npm run tracker -- <command>` (see `npm run tracker -- help`).
process.env.TZ = 'UTC';
import { runCli } from './cli.js';
import { unsupportedRuntimeMessage } from '../config/runtime.js';

const unsupported = unsupportedRuntimeMessage();
if (unsupported) process.stderr.write(`${unsupported}\n`);
process.exitCode = unsupported ? 2 : await runCli(process.argv.slice(2));
