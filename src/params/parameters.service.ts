import { Injectable } from '@nestjs/common';
import { MarkedCache } from '../common/marked-cache.js';
import { Db } from '../database/db.service.js';
import type { Sql, ReadSql } from '../database/sql.js';
import { Errors, TrackerError } from '../common/errors/index.js';
import { LONG_TEXT_MAX, exceedsLimit } from '../common/text-limits.js';
import { AuditService } from '../audit/audit.service.js';
import { randomSecret } from '../common/credentials.js';
import { PARAMETER_DEFINITIONS, PARAMETERS_BY_NAME, SITE_SECRET_PARAMETER, type ParameterDefinition } from './parameter-definitions.js';
import { ParametersRepository } from './parameters.repository.js';

/** A snapshot of the parameters, read once per request (no process cache: every instance sees every change). */
export class Parameters {
  constructor(private readonly values: ReadonlyMap<string, string>) {}

  get(name: string): string {
    return this.values.get(name) ?? PARAMETERS_BY_NAME.get(name)?.default ?? '';
  }
  bool(name: string): boolean {
    return this.get(name) === '1';
  }
  int(name: string): number {
    return Number(this.get(name)) || 0;
  }
  /** Every defined parameter with its current value. */
  all(): Record<string, string> {
    return Object.fromEntries(PARAMETER_DEFINITIONS.map((d) => [d.name, this.get(d.name)]));
  }
}

@Injectable()
export class ParametersService {
  private readonly kept = new MarkedCache<'all', Parameters>(1);

  constructor(private readonly db: Db, private readonly audit: AuditService, private readonly stored: ParametersRepository) {}

  async load(sql: ReadSql = this.db.read): Promise<Parameters> {
    const rows = await this.stored.all(sql);
    return new Parameters(new Map(rows.map((r) => [r.name, r.value])));
  }

  /**
   * The parameters as of the settings mark a request read (Caller.settingsMark), kept per instance while the mark
   * holds (parameters live in a settings table, so any change moves it); without a mark, read afresh. Inside a
   * transaction pass it as `sql`.
   */
  at(settingsMark: number | undefined, sql: ReadSql = this.db.read): Promise<Parameters> {
    if (settingsMark === undefined) return this.load(sql);
    return this.kept.through('all', settingsMark, () => this.load(sql));
  }

  /**
   * The parameters this instance kept last, under whatever mark (undefined before any request read them): a guess, for
   * a check that may only let a request go on — whatever it refuses must be decided on the parameters read afresh.
   */
  lastKept(): Parameters | undefined {
    return this.kept.latest('all');
  }

  /**
   * The parameters of a fresh install: a row for every parameter with its default, `settings` over them, and a new
   * site secret (it has no default).
   */
  async installDefaults(tx: Sql, settings: Readonly<Record<string, string>>): Promise<void> {
    const values: Record<string, string> = {
      ...Object.fromEntries(PARAMETER_DEFINITIONS.map((definition) => [definition.name, definition.default])),
      ...settings,
      [SITE_SECRET_PARAMETER]: randomSecret(48),
    };
    await this.stored.insertAll(tx, Object.entries(values).map(([name, value]) => ({ name, value })));
  }

  /**
   * Changes parameters in the caller's transaction, each validated; `isGroupName` answers for the group-valued
   * ones (the group module knows groups, this one does not). Returns the names actually changed.
   */
  async update(
    tx: Sql,
    changes: Record<string, unknown>,
    context: { userId: number; now: string; isGroupName: (name: string) => Promise<boolean> },
  ): Promise<string[]> {
    const current = await this.load(tx);
    const changed: string[] = [];
    for (const [name, raw] of Object.entries(changes)) {
      const definition = PARAMETERS_BY_NAME.get(name);
      if (!definition) throw TrackerError.of(Errors.UNKNOWN_PARAMETER, { name });
      const value = await this.validate(definition, raw, context.isGroupName);
      const before = current.get(name);
      if (before === value) continue;
      await this.stored.save(tx, name, value);
      await this.audit.record(tx, { userId: context.userId, className: 'Tracker::Config', objectId: 0, field: name, removed: before, added: value, at: context.now });
      changed.push(name);
    }
    return changed;
  }

  private async validate(definition: ParameterDefinition, raw: unknown, isGroupName: (name: string) => Promise<boolean>): Promise<string> {
    const invalid = (reason: string) => TrackerError.of(Errors.PARAMETER_INVALID_VALUE, { name: definition.name, reason });
    if (raw === null || typeof raw === 'object') throw invalid('the value must be a string, a number or a boolean');
    const value = typeof raw === 'boolean' ? (raw ? '1' : '0') : String(raw).trim();
    if (exceedsLimit(value, LONG_TEXT_MAX)) throw invalid(`it is longer than ${LONG_TEXT_MAX} characters`);
    const kind = definition.kind;
    if (kind === 'bool') {
      const normalised = { '1': '1', '0': '0', true: '1', false: '0', True: '1', False: '0', on: '1', off: '0' }[value];
      if (!normalised) throw invalid('it must be 1 or 0');
      return normalised;
    }
    if (kind === 'int') {
      if (!/^\d+$/.test(value)) throw invalid('it must be a non-negative integer');
      return String(Number(value));
    }
    if (kind === 'regexp') {
      try {
        new RegExp(value);
      } catch {
        throw invalid('it is not a valid regular expression');
      }
      return value;
    }
    if (kind === 'email') {
      if (value && !/^[^@\s]+@[^@\s]+$/.test(value)) throw invalid('it must be an email address');
      return value;
    }
    if (kind === 'url') {
      if (value && !/^https?:\/\/\S+\/$/.test(value)) throw invalid("it must be an http(s) URL ending with '/'");
      return value;
    }
    if (kind === 'group') {
      if (value && !(await isGroupName(value))) throw invalid(`there is no group named '${value}'`);
      return value;
    }
    if (typeof kind === 'object') {
      if (!kind.oneOf.includes(value)) throw invalid(`it must be one of ${kind.oneOf.join(', ')}`);
      return value;
    }
    return value;
  }
}
