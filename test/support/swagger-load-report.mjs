// Preloaded into the built service by openapi-on-demand.e2e-spec.ts (node --import): appends to the file named by
// TRACKER_TEST_SWAGGER_REPORT each module of @nestjs/swagger the process loads, so the test can tell when it did.
import fs from 'node:fs';
import module from 'node:module';

const report = process.env.TRACKER_TEST_SWAGGER_REPORT;
module.registerHooks({
  load(url, context, nextLoad) {
    if (report && url.includes('/node_modules/@nestjs/swagger/')) fs.appendFileSync(report, `${url}\n`);
    return nextLoad(url, context);
  },
});
