import path from 'node:path';

/**
 * After a run, the tests that were skipped, counted by the reason their title gives (itWhen / describeWhen in
 * conditions.ts: "[skipped: …]"), with the files they are in: Jest itself names skipped tests only in verbose runs,
 * and not at all for a file whose every test was skipped.
 */
export default class SkipReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
  }

  onRunComplete(_contexts, results) {
    const byReason = new Map();
    for (const file of results.testResults) {
      const name = path.basename(file.testFilePath).replace(/\.(e2e-)?spec\.ts$/, '');
      for (const test of file.testResults) {
        if (test.status !== 'pending') continue;
        const titles = [...test.ancestorTitles, test.title].join(' ');
        const reason = /\[skipped: ([^\]]+)\]/.exec(titles)?.[1] ?? 'no reason given';
        const files = byReason.get(reason) ?? new Map();
        files.set(name, (files.get(name) ?? 0) + 1);
        byReason.set(reason, files);
      }
    }
    if (!byReason.size) return;
    const lines = [...byReason].map(([reason, files]) => {
      const total = [...files.values()].reduce((sum, count) => sum + count, 0);
      return `  ${reason}: ${total} (${[...files].map(([name, count]) => `${name} ${count}`).join(', ')})`;
    });
    process.stderr.write(`Skipped tests, by reason:\n${lines.join('\n')}\n`);
  }
}
