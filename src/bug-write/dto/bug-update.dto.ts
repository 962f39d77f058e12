import { ApiPropertyOptional } from '../../common/openapi/openapi-decorators.js';
import { IsArray, IsObject, IsOptional } from 'class-validator';
import { LooseParam } from '../../common/http/dto.js';
import { LONG_TEXT_MAX, MaxText, freeText } from '../../common/text-limits.js';
import { FlagChangeDoc } from '../../bug-rules/dto/flag-change.doc.js';
import { AddRemoveDoc, AddRemoveSetDoc, CommentDoc } from './update-objects.doc.js';
import { BugBoolean, BugText } from '../../bug/dto/params.js';

/**
 * Update Bug body (service-spec "Update Bug", updates.md "Update Bug: body objects"). Types only: the texts are read
 * as before (an array's first element, numbers as text; 53 for an object), `comment_is_private` must be an object and
 * `flags` a list (53). The add/remove/set objects, the comment, time values and the deadline are taken as sent: their
 * rules answer with Bugzilla's own codes (53, 114, 52/54/55, 56); who may change what, legal values and the workflow
 * are the service's.
 *
 * Custom fields (`cf_*`) have names no class can declare: they are read from the request's data (customFieldsOf).
 */
export class BugUpdateInput {
  @LooseParam({ type: [String], description: 'More bugs to update, by ID or alias, after the path\'s one (all or nothing).' })
  ids?: unknown;

  @BugBoolean('Set the assignee to the component\'s default (of the new component if it changes in the same call).')
  reset_assigned_to?: boolean;

  @BugBoolean('Set the QA contact to the component\'s default.')
  reset_qa_contact?: boolean;

  @BugText('Assignee login; empty is 50.')
  assigned_to?: string;

  @BugText('QA contact login; empty clears it.')
  qa_contact?: string;

  @BugText('Move the bug to this product (component and version must exist there; 106 if the caller cannot file bugs in it).')
  product?: string;

  @BugText('Component.')
  component?: string;

  @BugText('Version.')
  version?: string;

  @BugText('Target milestone.')
  target_milestone?: string;

  @BugText('Operating system (a legal value, 51 otherwise).')
  op_sys?: string;

  @BugText('Platform (a legal value).')
  platform?: string;

  @BugText('Priority (a legal value).')
  priority?: string;

  @BugText('Severity (a legal value).')
  severity?: string;

  @BugText('Summary: not empty, 255 characters at most.')
  summary?: string;

  @BugText('URL.') @MaxText(freeText(LONG_TEXT_MAX))
  url?: string;

  @BugText('Status whiteboard.') @MaxText(freeText(LONG_TEXT_MAX))
  whiteboard?: string;

  @BugText('Other name of platform.')
  rep_platform?: string;

  @LooseParam({ type: AddRemoveSetDoc, description: 'Aliases: {add, remove, set}; a plain string or a list is taken as set. Only when one bug is updated (103).' })
  alias?: unknown;

  @LooseParam({ type: AddRemoveSetDoc, description: 'Bugs this one blocks (IDs or aliases): {add, remove, set}; loops are 116.' })
  blocks?: unknown;

  @LooseParam({ type: AddRemoveSetDoc, description: 'Bugs this one depends on (IDs or aliases): {add, remove, set}; loops are 116.' })
  depends_on?: unknown;

  @LooseParam({ type: AddRemoveDoc, description: 'CC logins: {add, remove}.' })
  cc?: unknown;

  @BugText("BMO's bug type: defect, enhancement or task (only with the bmo_bug_fields parameter on).")
  type?: string;

  @LooseParam({ type: AddRemoveSetDoc, description: "BMO's bugs that introduced this one (IDs or aliases): {add, remove, set}; loops are 116 (bmo_bug_fields)." })
  regressed_by?: unknown;

  @LooseParam({ type: AddRemoveSetDoc, description: "BMO's bugs this one introduced (IDs or aliases): {add, remove, set}; loops are 116 (bmo_bug_fields)." })
  regressions?: unknown;

  @LooseParam({ type: AddRemoveDoc, description: 'Group names: {add, remove}.' })
  groups?: unknown;

  @LooseParam({ type: AddRemoveSetDoc, description: 'Keyword names: {add, remove, set}, applied in that order.' })
  keywords?: unknown;

  @LooseParam({ type: AddRemoveDoc, description: 'See Also URLs: {add, remove}.' })
  see_also?: unknown;

  @LooseParam({ type: CommentDoc, description: 'A comment to add: {body, is_private}; a plain string is the body.' })
  comment?: unknown;

  @ApiPropertyOptional({
    type: 'object', additionalProperties: { type: 'boolean' },
    description: 'Comment ID → privacy, for comments of this bug (117 otherwise; changing privacy needs insider rights, 113).',
  })
  @IsOptional() @IsObject()
  comment_is_private?: Record<string, unknown>;

  @ApiPropertyOptional({ type: [FlagChangeDoc], description: 'Flag changes (status required; same rules as Update Attachment).' })
  @IsOptional() @IsArray()
  flags?: unknown[];

  @LooseParam({ type: String, format: 'date', description: 'Deadline, YYYY-MM-DD, or empty to clear (time trackers; 56 for a bad date).' })
  deadline?: unknown;

  @LooseParam({ type: Number, description: 'Total estimate in hours, 0 to 99999.99 (time trackers).' })
  estimated_time?: unknown;

  @LooseParam({ type: Number, description: 'Hours left, 0 to 99999.99 (time trackers).' })
  remaining_time?: unknown;

  @LooseParam({ type: Number, description: 'Hours worked in this change (may be negative); adds a comment and reduces remaining_time.' })
  work_time?: unknown;

  @BugBoolean('Whether the CC list may see the bug despite its groups.')
  is_cc_accessible?: boolean;

  @BugBoolean('Whether the reporter may see the bug despite its groups.')
  is_creator_accessible?: boolean;

  @BugText('New status (workflow.md); null counts as sent.', { keepNull: true })
  status?: string | null;

  @BugText('Resolution; setting one on an open bug is an error, even empty or null.', { keepNull: true })
  resolution?: string | null;

  @BugText('Mark the bug a duplicate of this bug (ID or alias).', { keepNull: true })
  dupe_of?: string | null;
}
