import path from 'node:path';

/**
 * Fails the run when a test was skipped (`it.skip`, `describe.skip`, `xit`, `it.todo`): each pass runs the tests that
 * apply to it and leaves the others out (test/support/conditions.ts, test/support/pass-files.cjs), so a skipped test
 * is a test that never runs anywhere. A run narrowed with `-t` skips the tests it does not name, and is not judged.
 */
export default class NoSkippedTests {
  constructor(globalConfig) {
    this.narrowed = Boolean(globalConfig.testNamePattern);
    this.error = undefined;
  }

  onRunComplete(_contexts, results) {
    if (this.narrowed) return;
    const skipped = results.testResults.flatMap((file) =>
      file.testResults
        .filter((test) => test.status === 'pending' || test.status === 'todo')
        .map((test) => `  ${path.relative(process.cwd(), file.testFilePath)}: ${[...test.ancestorTitles, test.title].join(' › ')}`),
    );
    if (!skipped.length) return;
    this.error = new Error(`${skipped.length} skipped test(s); run them in the pass they apply to instead:\n${skipped.join('\n')}`);
    process.stderr.write(`${this.error.message}\n`);
  }

  getLastError() {
    return this.error;
  }
}
