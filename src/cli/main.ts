// The admin command line: `npm run tracker -- <command>` (see `npm run tracker -- help`).
process.env.TZ = 'UTC';
import { runCli } from './cli.js';

process.exitCode = await runCli(process.argv.slice(2));
