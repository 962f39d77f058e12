import { Injectable } from '@nestjs/common';
import { Db } from '../database/db.service.js';
import type { Caller, CallerGroups } from '../common/caller.js';
import { Errors, TrackerError } from '../common/errors/index.js';
import type { FieldSelection, ResourceFields } from '../common/fields/field-selection.js';
import { GroupService, type GroupRecord } from '../group/group.service.js';
import { UserService, type UserRecord } from './user.service.js';
import { UserRepository, type SavedQuery } from './user.repository.js';

/** Get User's fields for include_fields/exclude_fields: groups and saved searches/reports hold objects. */
export const USER_FIELDS: ResourceFields = { nested: { groups: {}, saved_searches: {}, saved_reports: {} } };

export interface PublicUser {
  id: number;
  real_name: string;
  name: string;
  email?: string;
  can_login?: boolean;
  email_enabled?: boolean;
  login_denied_text?: string;
  groups?: Array<{ id: number; name: string; description: string }>;
  saved_searches?: SavedQuery[];
  saved_reports?: SavedQuery[];
}

/** A User.suggest answer's user (BMO). */
export interface SuggestedUser {
  id: number;
  real_name: string;
  nick: string;
  name: string;
}

/** BMO's cap on User.suggest's answer. */
const SUGGESTIONS = 25;

export interface UserQuery {
  ids: number[];
  names: string[];
  match: string[];
  limit?: number;
  groupIds: number[];
  groups: string[];
  includeDisabled: boolean;
}

/**
 * Get User and whoami (seed "User" visibility rules 1-4, "Users and login"; errors.md 505/304/51/804): which users
 * a caller may ask for, and which of their fields it sees.
 */
@Injectable()
export class UserReaderService {
  constructor(
    private readonly db: Db,
    private readonly users: UserService,
    private readonly accounts: UserRepository,
    private readonly groups: GroupService,
  ) {}

  async get(query: UserQuery, caller: Caller, selection: FieldSelection): Promise<PublicUser[]> {
    if (!query.ids.length && !query.names.length && !query.match.length) {
      throw TrackerError.of(Errors.PARAMS_REQUIRED, { function: 'User.get', params: ['ids', 'names', 'match'] });
    }
    if (!caller.isLoggedIn) {
      if (query.ids.length) throw TrackerError.of(Errors.USER_ACCESS_BY_ID_DENIED);
      if (query.match.length) throw TrackerError.of(Errors.USER_ACCESS_BY_MATCH_DENIED);
    }
    const found = new Map<number, UserRecord>();
    for (const user of await this.byNames(query.names)) found.set(user.id, user);
    for (const user of await this.byIds(query.ids, caller)) if (!found.has(user.id)) found.set(user.id, user);
    for (const text of query.match) {
      for (const user of await this.match(text, query, caller)) if (!found.has(user.id)) found.set(user.id, user);
    }
    const users = await this.inRequestedGroups([...found.values()], query, caller);
    return this.present(users, caller, selection);
  }

  /** The caller's own user object (GET /rest/whoami): everything a caller sees of their own account. */
  async self(caller: Caller, selection: FieldSelection): Promise<PublicUser> {
    const user = await this.users.findById(caller.id);
    if (!user) throw TrackerError.of(Errors.LOGIN_REQUIRED);
    return (await this.present([user], caller, selection))[0];
  }

  /** Logins, each required to exist (51); names are not subject to visibility (as in Bugzilla). */
  private async byNames(names: string[]): Promise<UserRecord[]> {
    const byLogin = await this.users.findByLogins(names);
    return names.map((name) => {
      const user = byLogin.get(name.trim().toLowerCase());
      if (!user) throw TrackerError.of(Errors.OBJECT_DOES_NOT_EXIST, { kind: 'user', name });
      return user;
    });
  }

  /** Unknown ids are skipped (observed on 5.0.6); a user the caller may not see is 304. */
  private async byIds(ids: number[], caller: Caller): Promise<UserRecord[]> {
    const byId = await this.users.findByIds(ids);
    const visible = await this.groups.visibleUserIds(caller, [...byId.keys()]);
    return ids.flatMap((id) => {
      const user = byId.get(id);
      if (!user) return [];
      if (!visible.has(id)) throw TrackerError.of(Errors.AUTH_FAILURE, { reason: 'not_visible', userid: id });
      return [user];
    });
  }

  /**
   * BMO's User.suggest: up to 25 enabled accounts for a name being typed, `{id, real_name, nick, name}` each (`nick`:
   * the login before its @, as BMO shows accounts without a nickname). `:x` or `@x` is a nick's beginning, text with
   * an @ a login's; text with a space or beyond ASCII matches words of real names, text in capitals those or a
   * login's beginning, other text a login's beginning. Under 3 characters: none. Users the caller may not see are
   * left out (usevisibilitygroups, as match).
   */
  async suggest(match: string | undefined, caller: Caller): Promise<SuggestedUser[]> {
    if (match === undefined) throw TrackerError.of(Errors.PARAMS_REQUIRED, { function: 'User.suggest', params: ['match'] });
    if (!caller.isLoggedIn) throw TrackerError.of(Errors.USER_ACCESS_BY_MATCH_DENIED);
    const text = match.trim();
    if (text.length < 3) return [];
    const nick = /^[:@](.+)$/s.exec(text)?.[1];
    const words = text.split(/\s+/);
    const terms = nick !== undefined ? { loginPrefix: nick }
      : text.includes('@') ? { loginPrefix: text }
      : /\s|[^\p{ASCII}]/u.test(text) ? { realNameWords: words }
      : /^\p{Lu}/u.test(text) ? { loginPrefix: text, realNameWords: words }
      : { loginPrefix: text };
    const users = await this.users.suggestions(terms, SUGGESTIONS);
    const visible = await this.groups.visibleUserIds(caller, users.map((u) => u.id));
    return users.filter((u) => visible.has(u.id)).map((u) => ({ id: u.id, real_name: u.realName, nick: u.login.split('@')[0], name: u.login }));
  }

  /**
   * One `match` string (Bugzilla's User::match): an exact login wins (even a disabled account); otherwise accounts
   * whose login or real name contains the string, enabled ones only unless include_disabled, visible to the
   * caller, ordered by login, at most min(limit, maxusermatches) of them (0 meaning no cap).
   */
  private async match(text: string, query: UserQuery, caller: Caller): Promise<UserRecord[]> {
    const exact = await this.users.findByLogin(text);
    if (exact) return (await this.groups.visibleUserIds(caller, [exact.id])).has(exact.id) ? [exact] : [];
    const cap = caller.parameters.int('maxusermatches');
    const limit = query.limit && query.limit > 0 ? (cap ? Math.min(query.limit, cap) : query.limit) : cap;
    const users = await this.users.matching(text, { includeDisabled: query.includeDisabled, limit });
    const ids = users.map((u) => u.id);
    const visible = await this.groups.visibleUserIds(caller, ids);
    return users.filter((user) => visible.has(user.id));
  }

  /**
   * The `group_ids` / `groups` filters: keep users in any of the groups (membership as Bugzilla counts it). An
   * unknown group id is 51; a group name that does not exist or that the caller is not in is 804.
   */
  private async inRequestedGroups(users: UserRecord[], query: UserQuery, caller: Caller): Promise<UserRecord[]> {
    if (!query.groupIds.length && !query.groups.length) return users;
    const byId = await this.groups.findByIds(query.groupIds);
    for (const id of query.groupIds) {
      if (!byId.some((g) => g.id === id)) throw TrackerError.of(Errors.OBJECT_DOES_NOT_EXIST, { kind: 'group', id });
    }
    const byName = await this.groups.findByNames(query.groups);
    const wanted = new Set(byId.map((g) => g.id));
    for (const name of query.groups) {
      const group = byName.get(name.trim().toLowerCase());
      if (!group || !caller.inGroupId(group.id)) throw TrackerError.of(Errors.INVALID_GROUP_NAME, { name });
      wanted.add(group.id);
    }
    const memberships = await this.groups.membershipsOfMany(users.map((u) => u.id));
    return users.filter((u) => [...memberships.get(u.id)!.memberOf.keys()].some((id) => wanted.has(id)));
  }

  /**
   * The four visibility rules of the seed: anonymous sees id, name, real_name; a logged-in caller also email,
   * can_login and the groups it can bless; self and editusers see all groups; editusers sees email_enabled and
   * login_denied_text; saved searches and reports only of oneself. Groups are loaded only when selected.
   */
  private async present(users: UserRecord[], caller: Caller, selection: FieldSelection): Promise<PublicUser[]> {
    if (!caller.isLoggedIn) return users.map((u) => ({ id: u.id, real_name: u.realName, name: u.login }));
    const editusers = caller.inGroup('editusers');
    const wantsGroups = selection.wants('groups', USER_FIELDS);
    const [memberships, allGroups] = wantsGroups
      ? await Promise.all([this.groups.membershipsOfMany(users.map((u) => u.id)), this.groups.findAll()])
      : [new Map<number, CallerGroups>(), [] as GroupRecord[]];
    const self = users.some((u) => u.id === caller.id) ? await this.savedQueries(caller.id, selection) : undefined;
    return users.map((user) => {
      const result: PublicUser = {
        id: user.id, real_name: user.realName, name: user.login, email: user.email, can_login: user.loginDeniedText === '',
      };
      if (editusers) {
        result.email_enabled = user.emailEnabled;
        result.login_denied_text = user.loginDeniedText;
      }
      if (wantsGroups) {
        const memberOf = memberships.get(user.id)!.memberOf;
        const shown = user.id === caller.id || editusers ? (id: number) => memberOf.has(id) : (id: number) => memberOf.has(id) && caller.canBless(id);
        result.groups = allGroups.filter((g) => shown(g.id)).map((g) => ({ id: g.id, name: g.name, description: g.description }));
      }
      if (user.id === caller.id && self) Object.assign(result, self);
      return result;
    });
  }

  private async savedQueries(userId: number, selection: FieldSelection): Promise<Pick<PublicUser, 'saved_searches' | 'saved_reports'>> {
    const result: Pick<PublicUser, 'saved_searches' | 'saved_reports'> = {};
    if (selection.wants('saved_searches', USER_FIELDS)) result.saved_searches = await this.accounts.savedSearches(this.db.read, userId);
    if (selection.wants('saved_reports', USER_FIELDS)) result.saved_reports = await this.accounts.savedReports(this.db.read, userId);
    return result;
  }
}
