import type { Sql } from '../../database/sql.js';

/**
 * One request's part of a transaction that requests updating the same bug share (UpdateBatches,
 * BugUpdateService.updateTogether): if it is refused, what it wrote is undone and the other requests' work stays, so
 * that each comes to what it would have alone. How (a savepoint, held with the transaction's other statements and
 * sent only if a read needs it) is Sql.undoableStep's.
 */
export function undoneAloneIfRefused<T>(tx: Sql, part: () => Promise<T>): Promise<T> {
  return tx.undoableStep(part);
}
