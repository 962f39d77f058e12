// `node --import ./test/support/load-recorder.mjs …`: writes "loaded <url>" to stderr for each module whose URL
// matches LOAD_RECORDER_PATTERN (a regular expression), so a test can tell what a command loaded.
import { register } from 'node:module';

register('./load-recorder-hooks.mjs', import.meta.url);
