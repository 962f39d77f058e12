/**
 * The installation parameters (Bugzilla's "params"), their defaults on a fresh install (Bugzilla 5.0's)
 * and who may read them through GET /rest/parameters. Values are strings, as the API returns them.
 */
import { Errors, TrackerError } from '../common/errors/index.js';

/** BMO's bug types (its bug_type field values but `--`, which BMO keeps for bugs filed before types; issue 43). */
export const BUG_TYPES = ['defect', 'enhancement', 'task'] as const;

/** The type named by `value` (any case) as BMO spells it; an empty one is 50, an unknown one 51 (a select's errors). */
export function legalBugType(value: string): string {
  const name = value.trim();
  if (name === '') throw TrackerError.of(Errors.OBJECT_NOT_SPECIFIED, { kind: 'type' });
  const type = BUG_TYPES.find((t) => t === name.toLowerCase());
  if (!type) throw TrackerError.of(Errors.OBJECT_DOES_NOT_EXIST, { kind: 'type', name });
  return type;
}

export type ParameterKind = 'bool' | 'int' | 'string' | 'regexp' | 'email' | 'group' | 'url' | { oneOf: readonly string[] };

export interface ParameterDefinition {
  name: string;
  default: string;
  kind: ParameterKind;
  /** Visible to anonymous callers (`anonymous`), to every logged-in caller (`user`), or to tweakparams only. */
  visibleTo: 'anonymous' | 'user' | 'tweakparams';
  /**
   * Listed by GET /rest/parameters only while this boolean parameter is on (Bugzilla 5.0 has no such parameter: with
   * it off, the list is 5.0's). Always settable.
   */
  listedWith?: string;
}

const p = (name: string, def: string, kind: ParameterKind, visibleTo: ParameterDefinition['visibleTo'] = 'tweakparams'): ParameterDefinition =>
  ({ name, default: def, kind, visibleTo });
const bmo = (name: string, def: string, kind: ParameterKind): ParameterDefinition => ({ ...p(name, def, kind), listedWith: 'bmo_bug_fields' });

export const PARAMETER_DEFINITIONS: readonly ParameterDefinition[] = [
  p('maintainer', '', 'email', 'anonymous'),
  p('requirelogin', '0', 'bool', 'anonymous'),
  p('urlbase', '', 'url', 'user'),
  p('attachment_base', '', 'string', 'user'),
  p('cookiepath', '/', 'string', 'user'),
  p('allowemailchange', '1', 'bool', 'user'),
  p('emailregexp', "^[\\w\\.\\+\\-=']+@[\\w\\.\\-]+\\.[\\w\\-]+$", 'regexp', 'user'),
  p('emailregexpdesc', 'A legal address must contain exactly one \'@\', and at least one \'.\' after the @.', 'string', 'user'),
  p('emailsuffix', '', 'string', 'user'),
  p('createemailregexp', '.*', 'regexp'),
  p('mailfrom', 'bugzilla-daemon', 'string', 'user'),
  p('defaultpriority', '---', 'string', 'user'),
  p('defaultseverity', 'enhancement', 'string', 'user'),
  // Bugzilla ships these empty, which makes a Create Bug without platform/op_sys fail; Tracker defaults them to All.
  p('defaultplatform', 'All', 'string', 'user'),
  p('defaultopsys', 'All', 'string', 'user'),
  p('duplicate_or_move_bug_status', 'RESOLVED', 'string', 'user'),
  p('letsubmitterchoosepriority', '1', 'bool', 'user'),
  p('letsubmitterchoosemilestone', '1', 'bool', 'user'),
  p('musthavemilestoneonaccept', '0', 'bool', 'user'),
  p('commentonchange_resolution', '0', 'bool', 'user'),
  p('commentonduplicate', '0', 'bool', 'user'),
  p('noresolveonopenblockers', '0', 'bool', 'user'),
  p('maxattachmentsize', '1000', 'int', 'user'),
  p('maxlocalattachment', '0', 'int', 'user'),
  p('password_complexity', 'no_constraints', { oneOf: ['no_constraints', 'mixed_letters', 'letters_numbers', 'letters_numbers_specialchars'] }, 'user'),
  p('rememberlogin', 'on', { oneOf: ['on', 'defaulton', 'defaultoff', 'off'] }, 'user'),
  p('search_allow_no_criteria', '1', 'bool', 'user'),
  p('max_search_results', '10000', 'int'),
  p('default_search_limit', '500', 'int'),
  p('use_see_also', '1', 'bool', 'user'),
  p('useclassification', '0', 'bool', 'user'),
  p('usemenuforusers', '0', 'bool', 'user'),
  p('useqacontact', '0', 'bool', 'user'),
  p('usestatuswhiteboard', '0', 'bool', 'user'),
  p('usetargetmilestone', '0', 'bool', 'user'),
  p('maxusermatches', '1000', 'int'),
  p('insidergroup', '', 'group'),
  p('timetrackinggroup', 'editbugs', 'group'),
  p('comment_taggers_group', 'editbugs', 'group'),
  p('querysharegroup', 'editbugs', 'group'),
  p('chartgroup', 'editbugs', 'group'),
  p('makeproductgroups', '0', 'bool'),
  p('usevisibilitygroups', '0', 'bool'),
  p('strict_isolation', '0', 'bool'),
  p('or_groups', '1', 'bool'),
  p('utf8', '1', 'bool'),
  p('webservice_email_filter', '0', 'bool'),
  p('user_info_class', 'CGI', 'string'),
  p('user_verify_class', 'DB', 'string'),
  p('password_check_on_login', '1', 'bool'),
  p('collapsed_comment_tags', 'obsolete, spam', 'string'),
  p('allowbugdeletion', '0', 'bool'),
  p('allowuserdeletion', '0', 'bool'),
  p('last_visit_keep_days', '10', 'int'),
  // BMO's bug fields (issue 43): off, bugs answer as Bugzilla 5.0's; on, as BMO's (docs/decisions.md).
  bmo('bmo_bug_fields', '0', 'bool'),
  bmo('default_bug_type', 'defect', { oneOf: BUG_TYPES }),
];

export const PARAMETERS_BY_NAME: ReadonlyMap<string, ParameterDefinition> = new Map(PARAMETER_DEFINITIONS.map((d) => [d.name, d]));

/** The secret behind update_token HMACs; stored beside the parameters but never shown by the API. */
export const SITE_SECRET_PARAMETER = 'site_wide_secret';
