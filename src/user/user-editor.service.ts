import { Injectable } from '@nestjs/common';
import { Db } from '../database/db.service.js';
import type { Sql } from '../database/sql.js';
import { AuditService } from '../audit/audit.service.js';
import type { ParameterSnapshot } from '../common/caller.js';
import type { Caller } from '../common/caller.js';
import { Errors, TrackerError } from '../common/errors/index.js';
import { toDbDateTime } from '../common/time/datetime.js';
import { hashPassword } from '../common/credentials.js';
import { FieldChanges, flag, textParam } from '../common/changes.js';
import { GroupService, type GroupRecord } from '../group/group.service.js';
import { USER_AUDIT_CLASS, UserService, type UserRecord } from './user.service.js';
import { UserRepository, type UserChanges } from './user.repository.js';
import { parseGroupChange, planGroupChange, validateEmail, validatePassword, type GroupChangeRequest } from './user-rules.js';
import type { UserUpdateInput } from './dto/user.dto.js';

/** The value of a group change, its ids resolved and blessing checked. */
interface ResolvedGroupChange {
  add: number[];
  remove: number[];
  set?: number[];
}

/**
 * Update User (editusers; updates.md "Update User"): every user named by path, ids and names, in one transaction.
 * `changes` keys follow 5.0.6: email, full_name, password (values never shown), disable_mail, login_denied_text,
 * is_enabled, groups, bless_groups.
 */
@Injectable()
export class UserEditorService {
  constructor(
    private readonly db: Db,
    private readonly users: UserService,
    private readonly accounts: UserRepository,
    private readonly groups: GroupService,
    private readonly audit: AuditService,
  ) {}

  async update(target: { ids: number[]; names: string[] }, values: UserUpdateInput, caller: Caller, now: Date): Promise<Array<{ id: number; changes: Record<string, unknown> }>> {
    if (!target.ids.length && !target.names.length) {
      throw TrackerError.of(Errors.PARAMS_REQUIRED, { function: 'User.update', params: ['ids', 'names'] });
    }
    const parameters = caller.parameters;
    const groupChanges = {
      groups: values.groups === undefined ? undefined : parseGroupChange('groups', values.groups),
      bless_groups: values.bless_groups === undefined ? undefined : parseGroupChange('bless_groups', values.bless_groups),
    };
    // Hashing is slow on purpose: do it once, before the transaction.
    const password = values.password === undefined ? undefined : this.checkPassword(values.password, parameters);
    const cryptpassword = password === undefined ? undefined : await hashPassword(password);
    const at = toDbDateTime(now);
    return this.db.transaction(async (tx) => {
      const users = await this.resolveUsers(tx, target);
      const email = values.email === undefined ? undefined : textParam(values.email, 'email');
      if (email !== undefined && users.length > 1) throw TrackerError.of(Errors.ACCOUNT_EXISTS, { email });
      const resolved = {
        groups: groupChanges.groups && (await this.resolveGroupChange(tx, groupChanges.groups, caller)),
        bless_groups: groupChanges.bless_groups && (await this.resolveGroupChange(tx, groupChanges.bless_groups, caller)),
      };
      const results = [];
      for (const user of users) {
        const changes = await this.updateAccount(tx, user, { ...values, email, cryptpassword }, parameters);
        for (const key of ['groups', 'bless_groups'] as const) {
          const change = resolved[key];
          if (change) await this.changeGroups(tx, user.id, key === 'bless_groups', change, caller, changes, key);
        }
        await changes.audit(tx, this.audit, { userId: caller.id, className: USER_AUDIT_CLASS, objectId: user.id, at, secret: ['password'] });
        results.push({ id: user.id, changes: changes.toJSON() });
      }
      return results;
    });
  }

  /** ids (51 when unknown) then logins (51 when unknown), each user once. */
  private async resolveUsers(tx: Sql, target: { ids: number[]; names: string[] }): Promise<UserRecord[]> {
    const [byId, byLogin] = await Promise.all([this.users.findByIds(target.ids, tx), this.users.findByLogins(target.names, tx)]);
    const found = new Map<number, UserRecord>();
    for (const id of target.ids) {
      const user = byId.get(id);
      if (!user) throw TrackerError.of(Errors.OBJECT_DOES_NOT_EXIST, { kind: 'user', id });
      found.set(user.id, user);
    }
    for (const name of target.names) {
      const user = byLogin.get(name.trim().toLowerCase());
      if (!user) throw TrackerError.of(Errors.OBJECT_DOES_NOT_EXIST, { kind: 'user', name });
      if (!found.has(user.id)) found.set(user.id, user);
    }
    return [...found.values()];
  }

  private checkPassword(value: string, parameters: ParameterSnapshot): string {
    // Trimmed like Create User's password (seed).
    const password = textParam(value, 'password');
    validatePassword(password, parameters.get('password_complexity'));
    return password;
  }

  /** The account's own columns; a new login re-derives regexp memberships; credential changes end login tokens. */
  private async updateAccount(
    tx: Sql,
    user: UserRecord,
    values: UserUpdateInput & { cryptpassword?: string },
    parameters: ParameterSnapshot,
  ): Promise<FieldChanges> {
    const changes = new FieldChanges();
    const row: UserChanges = {};
    if (values.email !== undefined && values.email !== user.login) {
      if (!values.email) throw TrackerError.of(Errors.USER_LOGIN_REQUIRED);
      validateEmail(values.email, parameters.get('emailregexp'), parameters.get('emailregexpdesc'));
      await this.users.assertLoginFree(tx, values.email, user.id);
      row.loginName = values.email;
      row.email = values.email;
      changes.note('email', user.login, values.email);
    }
    if (values.full_name !== undefined) {
      row.realname = textParam(values.full_name, 'full_name');
      changes.note('full_name', user.realName, row.realname);
    }
    if (values.cryptpassword !== undefined) {
      row.cryptpassword = values.cryptpassword;
      changes.noteSecret('password');
    }
    if (values.email_enabled !== undefined) {
      row.emailEnabled = !!values.email_enabled;
      changes.note('disable_mail', flag(!user.emailEnabled), flag(!row.emailEnabled));
    }
    if (values.login_denied_text !== undefined) {
      const deniedText = textParam(values.login_denied_text, 'login_denied_text');
      row.loginDeniedText = deniedText;
      changes.note('login_denied_text', user.loginDeniedText, deniedText);
      changes.note('is_enabled', flag(user.loginDeniedText === ''), flag(deniedText === ''));
    }
    if (!Object.keys(row).length) return changes;
    await this.accounts.update(tx, user.id, row);
    if (row.loginName !== undefined) await this.groups.deriveRegexpGroupsOfUser(tx, user.id, row.loginName);
    if (changes.has('email') || changes.has('password') || changes.has('login_denied_text')) await this.users.credentialsChanged(tx, user.id);
    return changes;
  }

  /** Group references resolved (51 when unknown) and every one checked blessable by the caller (304). */
  private async resolveGroupChange(tx: Sql, request: GroupChangeRequest, caller: Caller): Promise<ResolvedGroupChange> {
    const resolve = async (refs: unknown[] | undefined): Promise<number[]> => {
      const groups: GroupRecord[] = await this.groups.resolveRefs(refs ?? [], tx);
      for (const group of groups) {
        if (!caller.canBless(group.id)) throw TrackerError.of(Errors.AUTH_FAILURE, { reason: 'cant_bless', group: group.name });
      }
      return groups.map((g) => g.id);
    };
    if (request.set) return { add: [], remove: [], set: await resolve(request.set) };
    return { add: await resolve(request.add), remove: await resolve(request.remove) };
  }

  /** Direct memberships (or bless rights) only: regexp and inherited memberships are not touched. */
  private async changeGroups(tx: Sql, userId: number, isBless: boolean, change: ResolvedGroupChange, caller: Caller, changes: FieldChanges, key: string): Promise<void> {
    const current = await this.groups.directGroupIds(userId, isBless, tx);
    const plan = planGroupChange(current, change, (id) => caller.canBless(id));
    if (!plan.added.length && !plan.removed.length) return;
    await this.groups.changeDirectGroups(tx, userId, isBless, { add: plan.added, remove: plan.removed });
    const names = new Map((await this.groups.findByIds([...plan.added, ...plan.removed], tx)).map((g) => [g.id, g.name]));
    const joined = (ids: number[]) => ids.map((id) => names.get(id)).join(',');
    changes.note(key, joined(plan.removed), joined(plan.added));
  }
}
