/** The largest value of an `int` column, ids included (MySQL's signed INT). */
export const MAX_INT = 2_147_483_647;

/**
 * Whether a string of digits is an id an id column can hold. Larger numbers name nothing, and Number() would round
 * them (9223372036854775808 → 9223372036854776000): callers treat them as invalid ids and echo them as sent.
 */
export function isIdInRange(digits: string): boolean {
  // Nine digits or fewer always fit (every id a request names, in practice): no BigInt made on each request.
  return digits.length <= 9 || BigInt(digits) <= BigInt(MAX_INT);
}
