/**
 * Values read from the database, kept by one instance only while the settings mark (settingsMarkSql, read with the
 * caller on every request) is unchanged: every committed write of a settings table moves the mark
 * (ChangeMarkSubscriber), so a value kept under an older mark is never used. N instances stay correct because each
 * reads the mark itself.
 */
export class MarkedCache<K, V> {
  private readonly entries = new Map<K, { mark: number; value: V }>();

  constructor(private readonly capacity = 10_000) {}

  get(key: K, mark: number): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.mark !== mark) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** The value kept under whatever mark: a guess, to be checked against the mark read later. */
  latest(key: K): V | undefined {
    return this.entries.get(key)?.value;
  }

  set(key: K, mark: number, value: V): V {
    this.entries.delete(key);
    this.entries.set(key, { mark, value });
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
    return value;
  }

  /** The kept value, or `load()`'s, kept under `mark`. */
  async through(key: K, mark: number, load: () => Promise<V>): Promise<V> {
    const kept = this.get(key, mark);
    return kept !== undefined ? kept : this.set(key, mark, await load());
  }
}
