import { UpdateBatches, type PartOutcome } from './update-batches.js';

/** A runTogether whose transactions end when the test says so; it records the parts of each. */
function controlledRuns() {
  const runs: Array<{ parts: string[]; end(outcomes?: Array<PartOutcome<string>>): void; fail(error: unknown): void }> = [];
  const runTogether = (parts: string[]) =>
    new Promise<Array<PartOutcome<string>>>((resolve, reject) => {
      runs.push({ parts, end: (outcomes) => resolve(outcomes ?? parts.map((part) => ({ answer: `done ${part}` }))), fail: reject });
    });
  return { runs, runTogether };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('UpdateBatches', () => {
  it('runs the first update of a bug at once, alone', async () => {
    const { runs, runTogether } = controlledRuns();
    const batches = new UpdateBatches(runTogether, 32);
    const answer = batches.run(1, 'a');
    expect(runs.map((run) => run.parts)).toEqual([['a']]);
    runs[0].end();
    await expect(answer).resolves.toBe('done a');
  });

  it('sends the updates that came during a transaction together in the next, in the order they came', async () => {
    const { runs, runTogether } = controlledRuns();
    const batches = new UpdateBatches(runTogether, 32);
    const answers = ['a', 'b', 'c', 'd'].map((part) => batches.run(1, part));
    expect(runs.map((run) => run.parts)).toEqual([['a']]);
    runs[0].end();
    await settled();
    expect(runs.map((run) => run.parts)).toEqual([['a'], ['b', 'c', 'd']]);
    runs[1].end();
    await expect(Promise.all(answers)).resolves.toEqual(['done a', 'done b', 'done c', 'done d']);
  });

  it('keeps the bugs apart: an update of another bug does not wait', () => {
    const { runs, runTogether } = controlledRuns();
    const batches = new UpdateBatches(runTogether, 32);
    void batches.run(1, 'a');
    void batches.run(2, 'b');
    expect(runs.map((run) => run.parts)).toEqual([['a'], ['b']]);
  });

  it('carries at most `most` updates in one transaction', async () => {
    const { runs, runTogether } = controlledRuns();
    const batches = new UpdateBatches(runTogether, 2);
    const answers = ['a', 'b', 'c', 'd'].map((part) => batches.run(1, part));
    runs[0].end();
    await settled();
    runs[1].end();
    await settled();
    runs[2].end();
    await Promise.all(answers);
    expect(runs.map((run) => run.parts)).toEqual([['a'], ['b', 'c'], ['d']]);
  });

  it('gives each update its own outcome, and a failed transaction its error to all it carried', async () => {
    const { runs, runTogether } = controlledRuns();
    const batches = new UpdateBatches(runTogether, 32);
    const first = batches.run(1, 'a');
    const [b, c] = [batches.run(1, 'b'), batches.run(1, 'c')];
    runs[0].fail(new Error('lost'));
    await expect(first).rejects.toThrow('lost');
    await settled();
    runs[1].end([{ answer: 'b ok' }, { error: new Error('c refused') }]);
    await expect(b).resolves.toBe('b ok');
    await expect(c).rejects.toThrow('c refused');
    // The bug's queue is gone once nothing waits: the next update starts at once again.
    void batches.run(1, 'e');
    expect(runs.at(-1)!.parts).toEqual(['e']);
  });
});
