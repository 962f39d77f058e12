import { ApiPropertyOptional } from '../../common/openapi/openapi-decorators.js';
import { IsArray, IsOptional } from 'class-validator';
import { LooseParam } from '../../common/http/dto.js';
import { LONG_TEXT_MAX, MaxText, freeText } from '../../common/text-limits.js';
import { NewFlagDoc } from '../../bug-rules/dto/flag-change.doc.js';
import { BugBoolean, BugList, BugText } from '../../bug/dto/params.js';

/**
 * Create Bug body (service-spec "Create Bug body"), with the internal names Bugzilla also accepts (`short_desc`,
 * `rep_platform` …; the first spelling sent wins). Types only: required and defaulted fields (50, 105, 107), legal
 * values (51), who may set what and every other rule are BugCreateService's. Time values, the deadline, aliases and
 * flags are taken as sent: their rules answer a wrong value with Bugzilla's own codes (52/54/55, 56, 103, 50).
 *
 * Custom fields (`cf_*`) have names no class can declare: the service reads them from the request's data, where it
 * also refuses a key that is not a bug field (53, naming it).
 */
export class BugCreateInput {
  @BugText('Product name; required.')
  product?: string;

  @BugText('Component of the product; required.')
  component?: string;

  @BugText('One-line summary (255 characters at most); required.')
  summary?: string;

  @BugText('Other name of summary.')
  short_desc?: string;

  @BugText('Version of the product; required.')
  version?: string;

  @BugText('The first comment (comment 0); defaulted.')
  description?: string;

  @BugText('Other name of description.')
  comment?: string;

  @BugText('Operating system; defaulted (defaultopsys).')
  op_sys?: string;

  @BugText('Platform; defaulted (defaultplatform).')
  platform?: string;

  @BugText('Other name of platform.')
  rep_platform?: string;

  @BugText('Priority; defaulted (defaultpriority), and forced to it while letsubmitterchoosepriority is off.')
  priority?: string;

  @BugText('Severity; defaulted (defaultseverity).')
  severity?: string;

  @BugText('Other name of severity.')
  bug_severity?: string;

  @LooseParam({ type: [String], description: 'Aliases, unique across the installation (one alias or a list).' })
  alias?: unknown;

  @BugText('Assignee login, overriding the component owner (editbugs only; ignored otherwise).')
  assigned_to?: string;

  @BugList('Logins to add to the CC list.')
  cc?: string[];

  @BugBoolean('True makes the description private (insiders only).')
  comment_is_private?: boolean;

  @BugList('Group names; when omitted the product\'s default groups are used.')
  groups?: string[];

  @BugText('QA contact login, when QA contacts are enabled (editbugs only).')
  qa_contact?: string;

  @BugText('Initial status; only certain statuses are allowed at creation.')
  status?: string;

  @BugText('Other name of status.')
  bug_status?: string;

  @BugText('Resolution; needed when filing a closed bug.')
  resolution?: string;

  @BugText('Target milestone, valid for the product; defaults to the product\'s default milestone.')
  target_milestone?: string;

  @ApiPropertyOptional({ type: [NewFlagDoc], description: 'Flags to set: status and one of type_id or name required.' })
  @IsOptional() @IsArray()
  flags?: unknown[];

  @BugList('Keyword names (a list or a comma list).', { commas: true })
  keywords?: string[];

  @BugList('See Also URLs (ignored while use_see_also is off).')
  see_also?: string[];

  @BugList('Bugs (IDs or aliases) the new bug blocks (a list or a comma list).', { commas: true })
  blocks?: string[];

  @BugList('Other name of blocks.', { commas: true })
  blocked?: string[];

  @BugList('Bugs (IDs or aliases) the new bug depends on (a list or a comma list).', { commas: true })
  depends_on?: string[];

  @BugList('Other name of depends_on.', { commas: true })
  dependson?: string[];

  @BugText('URL of the bug.') @MaxText(freeText(LONG_TEXT_MAX))
  url?: string;

  @BugText('Other name of url.') @MaxText(freeText(LONG_TEXT_MAX))
  bug_file_loc?: string;

  @BugText('Status whiteboard.') @MaxText(freeText(LONG_TEXT_MAX))
  whiteboard?: string;

  @BugText('Other name of whiteboard.') @MaxText(freeText(LONG_TEXT_MAX))
  status_whiteboard?: string;

  @LooseParam({ format: 'date', type: String, description: 'Deadline, YYYY-MM-DD (time trackers only; 56 for a bad date).' })
  deadline?: unknown;

  @LooseParam({ type: Number, description: 'Estimated hours, 0 to 99999.99 (time trackers only).' })
  estimated_time?: unknown;

  @LooseParam({ type: Number, description: 'Remaining hours, 0 to 99999.99; defaults to estimated_time (time trackers only).' })
  remaining_time?: unknown;

  @BugBoolean('Whether the CC list may see the bug despite its groups (default true).')
  is_cc_accessible?: boolean;

  @BugBoolean('Other name of is_cc_accessible.')
  cclist_accessible?: boolean;

  @BugBoolean('Whether the reporter may see the bug despite its groups (default true).')
  is_creator_accessible?: boolean;

  @BugBoolean('Other name of is_creator_accessible.')
  reporter_accessible?: boolean;

  @BugText("BMO's bug type (defect, enhancement, task); defaulted from the component (bmo_bug_fields only).")
  type?: string;

  @BugText('Other name of type.')
  bug_type?: string;

  @BugList("BMO's bugs (IDs or aliases) that introduced the new bug (bmo_bug_fields only).", { commas: true })
  regressed_by?: string[];

  @BugList("BMO's bugs (IDs or aliases) the new bug introduced (bmo_bug_fields only).", { commas: true })
  regressions?: string[];

  @BugList('Other name of regressions.', { commas: true })
  regresses?: string[];

  @BugText("How the bug is filed, as BMO: standard_form, custom_form or api (the default); any other is unknown (bmo_bug_fields only).")
  filed_via?: string;
}

/** Create Bug's fields by their API names: the DTO without the other spellings. */
export type CreateFields = Pick<BugCreateInput,
  | 'product' | 'component' | 'summary' | 'version' | 'description' | 'op_sys' | 'platform' | 'priority' | 'severity'
  | 'alias' | 'assigned_to' | 'cc' | 'comment_is_private' | 'groups' | 'qa_contact' | 'status' | 'resolution'
  | 'target_milestone' | 'flags' | 'keywords' | 'see_also' | 'blocks' | 'depends_on' | 'url' | 'whiteboard'
  | 'deadline' | 'estimated_time' | 'remaining_time' | 'is_cc_accessible' | 'is_creator_accessible'
  | 'type' | 'regressed_by' | 'regressions' | 'filed_via'>;

/**
 * The keys Create Bug takes (API names, and the internal names Bugzilla's map_fields also accepts), mapped to the
 * API name. Anything else that is not a custom field is refused with 53 (errors.md param_invalid, clients.md).
 */
export const CREATE_KEYS: Readonly<Record<string, keyof CreateFields | ''>> = {
  product: 'product', component: 'component', summary: 'summary', short_desc: 'summary', version: 'version',
  description: 'description', comment: 'description', op_sys: 'op_sys', platform: 'platform', rep_platform: 'platform',
  priority: 'priority', severity: 'severity', bug_severity: 'severity', alias: 'alias', assigned_to: 'assigned_to',
  cc: 'cc', comment_is_private: 'comment_is_private', groups: 'groups', qa_contact: 'qa_contact', status: 'status',
  bug_status: 'status', resolution: 'resolution', target_milestone: 'target_milestone', flags: 'flags',
  keywords: 'keywords', see_also: 'see_also', blocks: 'blocks', blocked: 'blocks', depends_on: 'depends_on',
  dependson: 'depends_on', url: 'url', bug_file_loc: 'url', whiteboard: 'whiteboard', status_whiteboard: 'whiteboard',
  deadline: 'deadline', estimated_time: 'estimated_time', remaining_time: 'remaining_time',
  is_cc_accessible: 'is_cc_accessible', cclist_accessible: 'is_cc_accessible',
  is_creator_accessible: 'is_creator_accessible', reporter_accessible: 'is_creator_accessible',
  // Bug fields a caller can never set on create: accepted and ignored (service-spec "Create Bug rules").
  dupe_of: '', dup_id: '', creator: '', reporter: '', creation_time: '', last_change_time: '', is_confirmed: '',
  everconfirmed: '', classification: '', actual_time: '', work_time: '', id: '', tags: '', comment_tags: '', is_markdown: '',
};

/** BMO's keys (issue 43), taken as CREATE_KEYS only with the bmo_bug_fields parameter on (else 53, as 5.0). */
export const BMO_CREATE_KEYS: Readonly<Record<string, keyof CreateFields>> = {
  type: 'type', bug_type: 'type', regressed_by: 'regressed_by', regressions: 'regressions', regresses: 'regressions', filed_via: 'filed_via',
};
