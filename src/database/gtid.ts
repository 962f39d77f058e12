/**
 * A MariaDB GTID position (`@@gtid_binlog_pos` of the primary, `@@gtid_slave_pos` of a replica): per replication
 * domain, the sequence number of the last transaction, as `domain-server-seq` items joined by commas. Sequence numbers
 * grow within a domain whichever server wrote them, so a position covers another when it is at least as far in every
 * domain the other names (docs/replicas.md).
 */
export type GtidPosition = ReadonlyMap<number, bigint>;

/** The position `text` spells; an empty text is the empty position (a primary that has written nothing yet). */
export function parseGtidPosition(text: string | null | undefined): GtidPosition {
  const position = new Map<number, bigint>();
  for (const item of (text ?? '').split(',')) {
    const trimmed = item.trim();
    if (!trimmed) continue;
    const match = /^(\d+)-\d+-(\d+)$/.exec(trimmed);
    if (!match) throw new Error(`not a GTID: '${trimmed}'`);
    const domain = Number(match[1]);
    const seq = BigInt(match[2]);
    if ((position.get(domain) ?? -1n) < seq) position.set(domain, seq);
  }
  return position;
}

/** Whether a server at `reached` has applied everything up to `wanted`. */
export function covers(reached: GtidPosition, wanted: GtidPosition): boolean {
  for (const [domain, seq] of wanted) if ((reached.get(domain) ?? -1n) < seq) return false;
  return true;
}

/** The position as far as either of the two in each domain. */
export function furthest(a: GtidPosition, b: GtidPosition): GtidPosition {
  const merged = new Map(a);
  for (const [domain, seq] of b) if ((merged.get(domain) ?? -1n) < seq) merged.set(domain, seq);
  return merged;
}

