/**
 * A response body a service has already serialised, with the request's field selection already applied: the
 * FieldSelectionInterceptor sends it as it is (as `application/json`; JSONP, HTML and ETag still apply in onSend).
 * For answers assembled from kept JSON (Get Bug, Search Bugs), where parsing back into objects would undo the gain.
 */
export class RawJson {
  constructor(readonly text: string) {}
}

/** `{"a":1}` + `{b: 2}` → `{"a":1,"b":2}`: fields appended to an object's JSON text, in order. */
export function appendJsonFields(objectJson: string, fields: Record<string, unknown>): string {
  const more = JSON.stringify(fields);
  if (more === '{}') return objectJson;
  if (objectJson === '{}') return more;
  return `${objectJson.slice(0, -1)},${more.slice(1)}`;
}
