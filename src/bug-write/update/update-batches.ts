/** What one part of a shared transaction came to: its answer, or the error that refused it alone. */
export type PartOutcome<Answer> = { answer: Answer } | { error: unknown };

/**
 * Runs parts in one transaction and answers an outcome for each, in the order given. It calls `locked` once the
 * transaction holds the bug's lock; if it throws, every part of it fails with its error.
 */
export type RunTogether<Part, Answer> = (parts: Part[], locked: () => void) => Promise<Array<PartOutcome<Answer>>>;

interface Waiting<Part, Answer> {
  part: Part;
  resolve(answer: Answer): void;
  reject(error: unknown): void;
}

/** One bug's updates on this instance: those waiting for a transaction, and the transactions running. */
interface BugQueue<Part, Answer> {
  waiting: Array<Waiting<Part, Answer>>;
  running: number;
  /** How many transactions of the bug have started: the last one's number says which `locked` still counts. */
  started: number;
  /** Whether the last transaction started holds the bug's lock (or has ended). */
  lastLocked: boolean;
}

/**
 * Updates of one bug that arrive on this instance while earlier updates of that bug are in their transactions wait
 * here, then go together in the next transaction (issue 13): they would wait for the bug's row lock all the same, and
 * one transaction pays the lock, the stamps and the COMMIT once for all of them. The first update of a bug starts at
 * once.
 *
 * Two transactions of a bug run at a time: the next starts once the one before it holds the lock, so that its own
 * lock already waits in the database when that one commits, and is granted after it (the lock's queue keeps the
 * order in which the updates came). A third would only wait longer for the same lock.
 *
 * Instances do not share this: across them the row lock orders the transactions as before. Nothing here outlives
 * the requests waiting in it.
 */
export class UpdateBatches<Part, Answer> {
  private readonly queues = new Map<number, BugQueue<Part, Answer>>();

  constructor(
    private readonly runTogether: RunTogether<Part, Answer>,
    /** At most this many parts in one transaction: a longer queue goes in several. */
    private readonly most: number,
    /** At most this many transactions of one bug at a time. */
    private readonly inFlight = 2,
  ) {}

  run(bugId: number, part: Part): Promise<Answer> {
    return new Promise<Answer>((resolve, reject) => {
      let queue = this.queues.get(bugId);
      if (!queue) {
        queue = { waiting: [], running: 0, started: 0, lastLocked: true };
        this.queues.set(bugId, queue);
      }
      queue.waiting.push({ part, resolve, reject });
      this.startNext(bugId, queue);
    });
  }

  private startNext(bugId: number, queue: BugQueue<Part, Answer>): void {
    while (queue.waiting.length && queue.running < this.inFlight && queue.lastLocked) {
      void this.runBatch(bugId, queue, queue.waiting.splice(0, this.most));
    }
    if (!queue.running) this.queues.delete(bugId);
  }

  private async runBatch(bugId: number, queue: BugQueue<Part, Answer>, batch: Array<Waiting<Part, Answer>>): Promise<void> {
    const number = ++queue.started;
    queue.running++;
    queue.lastLocked = false;
    const locked = () => {
      if (number !== queue.started || queue.lastLocked) return;
      queue.lastLocked = true;
      this.startNext(bugId, queue);
    };
    try {
      const outcomes = await this.runTogether(batch.map((entry) => entry.part), locked);
      batch.forEach((entry, i) => {
        const outcome = outcomes[i];
        if ('error' in outcome) entry.reject(outcome.error);
        else entry.resolve(outcome.answer);
      });
    } catch (error) {
      for (const entry of batch) entry.reject(error);
    }
    queue.running--;
    // An ended transaction holds nothing: one that never said it was locked (it failed first) lets the next start.
    if (number === queue.started) queue.lastLocked = true;
    this.startNext(bugId, queue);
  }
}
