/**
 * include_fields / exclude_fields, as Bugzilla 5.0 applies them. Each resource
 * declares its field classes in a ResourceFields; this file knows no resource.
 */
export type FieldClass = 'default' | 'extra' | 'custom';

export interface ResourceFields {
  /** Fields returned only when asked for by name or with `_extra` (bug `tags`). */
  extra?: readonly string[];
  /** Custom fields: classes default and custom (bug `cf_*`). */
  isCustom?: (name: string) => boolean;
  /** Fields decided by another field's name, whose subfields use that name as prefix (`assigned_to_detail` → `assigned_to`). */
  linked?: Readonly<Record<string, string>>;
  /** Subfields of nested objects or arrays of objects (`components` of a product). */
  nested?: Readonly<Record<string, ResourceFields>>;
}

export class FieldSelection {
  private readonly include: ReadonlySet<string>;
  private readonly exclude: ReadonlySet<string>;
  private readonly includeEntries: readonly string[];

  /** The same for two selections that keep the same fields (answers kept per selection are found by it). */
  readonly key: string;

  constructor(include?: readonly string[], exclude?: readonly string[]) {
    this.includeEntries = include ?? [];
    this.include = new Set(include ?? []);
    this.exclude = new Set(exclude ?? []);
    this.key = `${[...this.include].sort().join(',')}|${[...this.exclude].sort().join(',')}`;
  }

  /** Everything by default: the selection of most requests, one shared instance (its fields are read-only). */
  static readonly NONE = new FieldSelection();

  /** The request's selection; the shared default one when neither list names a field. */
  static of(include: readonly string[] | undefined, exclude: readonly string[] | undefined): FieldSelection {
    return include?.length || exclude?.length ? new FieldSelection(include, exclude) : FieldSelection.NONE;
  }

  /** True when nothing is selected, so everything default is returned unfiltered. */
  get isDefault(): boolean {
    return this.include.size === 0 && this.exclude.size === 0;
  }

  /** Whether a top-level field will be returned: lets services skip loading what nobody asked for. */
  wants(name: string, spec: ResourceFields = {}): boolean {
    // Without include/exclude_fields the rules come down to the field's class (asked on every read).
    if (this.isDefault) return !spec.extra?.includes(name);
    return this.decide(name, this.classesOf(name, spec), { nested: false, parentNamed: false });
  }

  /** Whether some include_fields entry starts with `prefix` (a service can then load, say, custom fields named one by one). */
  includesPrefix(prefix: string): boolean {
    return this.includeEntries.some((entry) => entry.startsWith(prefix));
  }

  /** Filters one object (and its declared nested objects) in place of a copy. */
  apply<T extends Record<string, unknown>>(object: T, spec: ResourceFields = {}, prefix = '', parentNamed = false): Partial<T> {
    if (this.isDefault && !spec.extra?.length) return object;
    const result: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(object)) {
      const decisionName = spec.linked?.[name] ?? name;
      // A linked field follows its base field, but naming it in exclude_fields still drops it.
      if (decisionName !== name && this.exclude.has(prefix + name)) continue;
      const path = prefix + decisionName;
      const keep = this.decide(path, this.classesOf(decisionName, spec), { nested: prefix !== '', parentNamed });
      if (!keep) continue;
      const nestedSpec = spec.nested?.[name];
      if (nestedSpec && value !== null && typeof value === 'object') {
        const named = this.include.has(path);
        const filter = (item: unknown) =>
          item !== null && typeof item === 'object' ? this.apply(item as Record<string, unknown>, nestedSpec, `${path}.`, named) : item;
        result[name] = Array.isArray(value) ? value.map(filter) : filter(value);
      } else {
        result[name] = value;
      }
    }
    return result as Partial<T>;
  }

  private classesOf(name: string, spec: ResourceFields): FieldClass[] {
    if (spec.extra?.includes(name)) return ['extra'];
    if (spec.isCustom?.(name)) return ['default', 'custom'];
    return ['default'];
  }

  /** The first rule that applies wins (misc.md rules 1–7). */
  private decide(path: string, classes: FieldClass[], context: { nested: boolean; parentNamed: boolean }): boolean {
    if (this.exclude.has(path)) return false;
    if (this.include.has(path)) return true;
    if (this.exclude.has('_all')) return false;
    if (this.include.has('_all')) return true;
    for (const fieldClass of classes) {
      if (this.exclude.has(`_${fieldClass}`)) return false;
      if (this.include.has(`_${fieldClass}`)) return true;
    }
    if (this.include.size === 0 && classes.includes('default')) return true;
    if (context.nested && context.parentNamed) return true;
    return !context.nested && this.includeEntries.some((entry) => entry.startsWith(`${path}.`));
  }
}

/** `response` trimmed by `selection` at each target's path: what FieldSelectionInterceptor does to a handler's answer. */
export function applyAtTargets(response: unknown, targets: ReadonlyArray<{ path: string; fields: ResourceFields }>, selection: FieldSelection): unknown {
  return targets.reduce((result, target) => applyAtPath(result, target.path, selection, target.fields), response);
}

/**
 * Where a response holds its objects, in a small path language: `bugs[]` (each item of an array), `comments.*`
 * (each value of a map keyed by id), `bugs.*.comments[]`, or `parameters` (the object itself).
 */
export function applyAtPath(response: unknown, path: string, selection: FieldSelection, spec: ResourceFields): unknown {
  const [head, ...rest] = path.split('.');
  if (response === null || typeof response !== 'object') return response;
  const container = response as Record<string, unknown>;
  const restPath = rest.join('.');
  const visit = (value: unknown): unknown => {
    if (restPath === '') return value !== null && typeof value === 'object' ? selection.apply(value as Record<string, unknown>, spec) : value;
    return applyAtPath(value, restPath, selection, spec);
  };
  if (head === '*') {
    return Object.fromEntries(Object.entries(container).map(([key, value]) => [key, visit(value)]));
  }
  const isArray = head.endsWith('[]');
  const key = isArray ? head.slice(0, -2) : head;
  if (!(key in container)) return response;
  const value = container[key];
  const next = isArray && Array.isArray(value) ? value.map(visit) : visit(value);
  return { ...container, [key]: next };
}
