import module from 'node:module';
import { unsupportedRuntimeMessage } from './config/runtime.js';

/*
 * The entry point. It refuses a Node the service does not run on, then turns on V8's compile cache (in the system's
 * temporary directory; NODE_DISABLE_COMPILE_CACHE=1 turns it off) before anything else is loaded: most of a cold
 * start is loading modules, and compiling them is a sixth of it (issue 13). The service itself is server.ts.
 */
const unsupported = unsupportedRuntimeMessage();
if (unsupported) {
  process.stderr.write(`${unsupported}\n`);
  process.exit(2);
}
module.enableCompileCache();
await import('./server.js');
