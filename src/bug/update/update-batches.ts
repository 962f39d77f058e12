/** What one part of a shared transaction came to: its answer, or the error that refused it alone. */
export type PartOutcome<Answer> = { answer: Answer } | { error: unknown };

interface Waiting<Part, Answer> {
  part: Part;
  resolve(answer: Answer): void;
  reject(error: unknown): void;
}

/**
 * Updates of one bug that arrive on this instance while an earlier update of that bug is in its transaction wait
 * here, then go together in the next transaction (issue 13): they would wait for the bug's row lock all the same, and
 * one transaction pays the lock, the stamps and the COMMIT once for all of them. The first update of a bug starts at
 * once. `runTogether` runs the parts in the order given and answers an outcome for each; if it throws, every part
 * of that transaction fails with its error. Instances do not share this: across them the row lock orders the
 * transactions as before. Nothing here outlives the requests waiting in it.
 */
export class UpdateBatches<Part, Answer> {
  /** Per bug with a transaction running: the parts waiting for the next one. */
  private readonly waiting = new Map<number, Array<Waiting<Part, Answer>>>();

  constructor(
    private readonly runTogether: (parts: Part[]) => Promise<Array<PartOutcome<Answer>>>,
    /** At most this many parts in one transaction: a longer queue goes in several. */
    private readonly most: number,
  ) {}

  run(bugId: number, part: Part): Promise<Answer> {
    return new Promise<Answer>((resolve, reject) => {
      const entry = { part, resolve, reject };
      const queue = this.waiting.get(bugId);
      if (queue) {
        queue.push(entry);
        return;
      }
      this.waiting.set(bugId, []);
      void this.drain(bugId, [entry]);
    });
  }

  private async drain(bugId: number, first: Array<Waiting<Part, Answer>>): Promise<void> {
    let batch = first;
    while (batch.length) {
      try {
        const outcomes = await this.runTogether(batch.map((entry) => entry.part));
        batch.forEach((entry, i) => {
          const outcome = outcomes[i];
          if ('error' in outcome) entry.reject(outcome.error);
          else entry.resolve(outcome.answer);
        });
      } catch (error) {
        for (const entry of batch) entry.reject(error);
      }
      batch = this.waiting.get(bugId)!.splice(0, this.most);
    }
    this.waiting.delete(bugId);
  }
}
