import { UpdateBatches, type PartOutcome } from './update-batches.js';

/** A runTogether whose transactions take the lock and end when the test says so; it records the parts of each. */
function controlledRuns() {
  const runs: Array<{ parts: string[]; lock(): void; end(outcomes?: Array<PartOutcome<string>>): void; fail(error: unknown): void }> = [];
  const runTogether = (parts: string[], locked: () => void) =>
    new Promise<Array<PartOutcome<string>>>((resolve, reject) => {
      runs.push({ parts, lock: locked, end: (outcomes) => resolve(outcomes ?? parts.map((part) => ({ answer: `done ${part}` }))), fail: reject });
    });
  const partsOfRuns = () => runs.map((run) => run.parts);
  return { runs, runTogether, partsOfRuns };
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

  it('starts the next transaction once the one before holds the lock, and no third while two run', async () => {
    const { runs, runTogether, partsOfRuns } = controlledRuns();
    const batches = new UpdateBatches(runTogether, 32);
    const answers = ['a', 'b', 'c'].map((part) => batches.run(1, part));
    runs[0].lock();
    // Those that came while the first waited for its lock go next, and wait for it in the database.
    expect(partsOfRuns()).toEqual([['a'], ['b', 'c']]);
    answers.push(batches.run(1, 'd'), batches.run(1, 'e'));
    // The second does not hold the lock yet: what comes now waits on the instance.
    runs[0].end();
    await settled();
    expect(partsOfRuns()).toEqual([['a'], ['b', 'c']]);
    runs[1].lock();
    expect(partsOfRuns()).toEqual([['a'], ['b', 'c'], ['d', 'e']]);
    answers.push(batches.run(1, 'f'));
    runs[2].lock();
    // Two run (the second and the third): the fourth waits for one of them to end, though the third holds the lock.
    expect(partsOfRuns()).toHaveLength(3);
    runs[1].end();
    await settled();
    expect(partsOfRuns()).toEqual([['a'], ['b', 'c'], ['d', 'e'], ['f']]);
    runs[2].end();
    runs[3].end();
    await expect(Promise.all(answers)).resolves.toEqual(['a', 'b', 'c', 'd', 'e', 'f'].map((part) => `done ${part}`));
  });

  it('lets the next start when a transaction ends without having held the lock, and heeds only the last one\'s lock', async () => {
    const { runs, runTogether, partsOfRuns } = controlledRuns();
    const batches = new UpdateBatches(runTogether, 32);
    const first = batches.run(1, 'a');
    const second = batches.run(1, 'b');
    runs[0].fail(new Error('refused before the lock'));
    await expect(first).rejects.toThrow('refused before the lock');
    expect(partsOfRuns()).toEqual([['a'], ['b']]);
    void batches.run(1, 'c');
    // A late word from the ended transaction does not start the next: the running one has not locked.
    runs[0].lock();
    expect(partsOfRuns()).toHaveLength(2);
    runs[1].end();
    await expect(second).resolves.toBe('done b');
    expect(partsOfRuns()).toEqual([['a'], ['b'], ['c']]);
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
