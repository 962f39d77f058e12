import type { Parameters } from '../params/parameters.service.js';

export interface CallerUser {
  id: number;
  login: string;
  realName: string;
  email: string;
}

export interface CallerGroups {
  /** Every group the user is a member of: direct, by user_regexp, or inherited through other groups. */
  memberOf: ReadonlyMap<number, string>;
  /** Groups the user may bless (add others to): direct bless rights or through a group. */
  canBless: ReadonlySet<number>;
  /** Groups whose members the user may see (usevisibilitygroups). */
  canSee: ReadonlySet<number>;
}

const NO_GROUPS: CallerGroups = { memberOf: new Map(), canBless: new Set(), canSee: new Set() };

/**
 * Who asks, resolved once per request by the auth module (an anonymous caller is a Caller too), with the
 * request's parameter snapshot so group-named parameters (insidergroup, timetrackinggroup …) answer here.
 */
export class Caller {
  private readonly groupNames: ReadonlySet<string>;

  constructor(
    readonly user: CallerUser | null,
    readonly groups: CallerGroups,
    readonly parameters: Parameters,
    /** How the caller authenticated; `tokenId` is the login token used, if any (logout deletes it). */
    readonly credential: { kind: 'api_key' | 'token' | 'password' | 'none'; tokenId?: number } = { kind: 'none' },
  ) {
    this.groupNames = new Set(groups.memberOf.values());
  }

  static anonymous(parameters: Parameters): Caller {
    return new Caller(null, NO_GROUPS, parameters);
  }

  get isLoggedIn(): boolean {
    return this.user !== null;
  }

  /** The user id, 0 for an anonymous caller (Bugzilla's convention). */
  get id(): number {
    return this.user?.id ?? 0;
  }

  get groupIds(): number[] {
    return [...this.groups.memberOf.keys()];
  }

  inGroup(name: string): boolean {
    return name !== '' && this.groupNames.has(name);
  }

  inGroupId(id: number): boolean {
    return this.groups.memberOf.has(id);
  }

  canBless(groupId: number): boolean {
    return this.groups.canBless.has(groupId);
  }

  get canBlessAny(): boolean {
    return this.groups.canBless.size > 0;
  }

  /** Member of the `insidergroup` parameter's group: sees and sets private comments and attachments. */
  get isInsider(): boolean {
    return this.inGroup(this.parameters.get('insidergroup'));
  }

  /** Member of the `timetrackinggroup` parameter's group: sees and sets time-tracking fields. */
  get isTimeTracker(): boolean {
    return this.inGroup(this.parameters.get('timetrackinggroup'));
  }
}
