/**
 * The request's snapshot of the administrator's parameters, as the caller carries it. Implemented by the params
 * module (its `Parameters` class); declared here so that common knows no resource module.
 */
export interface ParameterSnapshot {
  /** The value of a parameter, its default when unset. */
  get(name: string): string;
  bool(name: string): boolean;
  int(name: string): number;
  /** Every defined parameter with its current value. */
  all(): Record<string, string>;
}

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
    readonly parameters: ParameterSnapshot,
    /** How the caller authenticated; `tokenId` is the login token used, if any (logout deletes it). */
    readonly credential: { kind: 'api_key' | 'token' | 'password' | 'none'; tokenId?: number } = { kind: 'none' },
    /**
     * The settings mark read with the credential at the start of the request (settingsMarkSql), under which the
     * catalogue modules keep their reads; undefined where none was read (then they read afresh).
     */
    readonly settingsMark?: number,
  ) {
    this.groupNames = new Set(groups.memberOf.values());
  }

  static anonymous(parameters: ParameterSnapshot, settingsMark?: number): Caller {
    return new Caller(null, NO_GROUPS, parameters, { kind: 'none' }, settingsMark);
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
