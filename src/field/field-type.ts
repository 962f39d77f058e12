/** Bugzilla's field type numbers. */
export const FieldType = {
  UNKNOWN: 0,
  FREETEXT: 1,
  SINGLE_SELECT: 2,
  MULTI_SELECT: 3,
  TEXTAREA: 4,
  DATETIME: 5,
  BUG_ID: 6,
  BUG_URLS: 7,
  KEYWORDS: 8,
  DATE: 9,
  INTEGER: 10,
} as const;
