import { FieldType } from '../field/field-type.js';
import type { StandardField } from '../field/field.types.js';
import type { SystemGroup } from '../group/group.service.js';
import type { TestProduct } from '../product/product.service.js';

/**
 * What a fresh installation holds (Bugzilla 5.0's defaults and workflow): groups with what each grants,
 * field values, the workflow, the default classification/product/component. Plain data, applied by InstallService.
 */

/** System groups in creation order; `admin` first, so it is id 1. */
export const SYSTEM_GROUPS: readonly SystemGroup[] = [
  { name: 'admin', description: 'Administrators' },
  { name: 'tweakparams', description: 'Can change Parameters' },
  { name: 'editusers', description: 'Can edit or disable users' },
  { name: 'creategroups', description: 'Can create and destroy groups' },
  { name: 'editclassifications', description: 'Can create, destroy, and edit classifications' },
  { name: 'editcomponents', description: 'Can create, destroy, and edit components' },
  { name: 'editkeywords', description: 'Can create, destroy, and edit keywords' },
  { name: 'editbugs', description: 'Can edit all bug fields', userRegexp: '.*' },
  { name: 'canconfirm', description: 'Can confirm a bug or mark it a duplicate' },
  { name: 'bz_canusewhineatothers', description: 'Can configure whine reports for other users' },
  { name: 'bz_canusewhines', description: 'User can configure whine reports for self' },
  { name: 'bz_sudoers', description: 'Can perform actions as other users' },
  { name: 'bz_sudo_protect', description: 'Can not be impersonated by other users' },
  { name: 'bz_quip_moderators', description: 'Can moderate quips' },
];

/** Inheritance among system groups besides admin's: [member group, group it becomes a member of]. */
export const SYSTEM_GROUP_INHERITANCE: ReadonlyArray<[string, string]> = [
  ['editbugs', 'bz_canusewhines'],
  ['bz_canusewhineatothers', 'bz_canusewhines'],
  ['bz_sudoers', 'bz_sudo_protect'],
];

/** Bugzilla 5.0's standard bug fields (internal names, as GET /rest/field/bug reports them). */
export const STANDARD_FIELDS: readonly StandardField[] = [
  { name: 'bug_id', description: 'Bug #', buglist: true, numeric: true },
  { name: 'short_desc', description: 'Summary', type: FieldType.FREETEXT, mailhead: true, buglist: true, mandatory: true },
  { name: 'classification', description: 'Classification', type: FieldType.SINGLE_SELECT, buglist: true },
  { name: 'product', description: 'Product', type: FieldType.SINGLE_SELECT, mailhead: true, buglist: true, mandatory: true },
  { name: 'version', description: 'Version', mailhead: true, buglist: true, mandatory: true },
  { name: 'rep_platform', description: 'Hardware', type: FieldType.SINGLE_SELECT, mailhead: true, buglist: true },
  { name: 'bug_file_loc', description: 'URL', mailhead: true, buglist: true },
  { name: 'op_sys', description: 'OS', type: FieldType.SINGLE_SELECT, mailhead: true, buglist: true },
  { name: 'bug_status', description: 'Status', type: FieldType.SINGLE_SELECT, mailhead: true, buglist: true },
  { name: 'status_whiteboard', description: 'Whiteboard', type: FieldType.FREETEXT, mailhead: true, buglist: true },
  { name: 'keywords', description: 'Keywords', type: FieldType.KEYWORDS, mailhead: true, buglist: true },
  { name: 'resolution', description: 'Resolution', type: FieldType.SINGLE_SELECT, buglist: true },
  { name: 'bug_severity', description: 'Severity', type: FieldType.SINGLE_SELECT, mailhead: true, buglist: true },
  { name: 'priority', description: 'Priority', type: FieldType.SINGLE_SELECT, mailhead: true, buglist: true },
  { name: 'component', description: 'Component', type: FieldType.SINGLE_SELECT, mailhead: true, buglist: true, mandatory: true },
  { name: 'assigned_to', description: 'Assignee', mailhead: true, buglist: true },
  { name: 'reporter', description: 'Reporter', mailhead: true, buglist: true },
  { name: 'qa_contact', description: 'QA Contact', mailhead: true, buglist: true },
  { name: 'assigned_to_realname', description: 'Assignee Real Name', buglist: true },
  { name: 'reporter_realname', description: 'Reporter Real Name', buglist: true },
  { name: 'qa_contact_realname', description: 'QA Contact Real Name', buglist: true },
  { name: 'cc', description: 'CC', mailhead: true },
  { name: 'dependson', description: 'Depends on', mailhead: true },
  { name: 'blocked', description: 'Blocks', mailhead: true },
  { name: 'attachments.description', description: 'Attachment description' },
  { name: 'attachments.filename', description: 'Attachment filename' },
  { name: 'attachments.mimetype', description: 'Attachment mime type' },
  { name: 'attachments.ispatch', description: 'Attachment is patch', numeric: true },
  { name: 'attachments.isobsolete', description: 'Attachment is obsolete', numeric: true },
  { name: 'attachments.isprivate', description: 'Attachment is private', numeric: true },
  { name: 'attachments.submitter', description: 'Attachment creator' },
  { name: 'target_milestone', description: 'Target Milestone', mailhead: true, buglist: true },
  { name: 'creation_ts', description: 'Opened', type: FieldType.DATETIME, buglist: true },
  { name: 'delta_ts', description: 'Changed', type: FieldType.DATETIME, buglist: true },
  { name: 'longdesc', description: 'Comment' },
  { name: 'longdescs.isprivate', description: 'Comment is private', numeric: true },
  { name: 'longdescs.count', description: 'Number of Comments', buglist: true, numeric: true },
  { name: 'alias', description: 'Alias', buglist: true },
  { name: 'everconfirmed', description: 'Ever Confirmed', numeric: true },
  { name: 'reporter_accessible', description: 'Reporter Accessible', numeric: true },
  { name: 'cclist_accessible', description: 'CC Accessible', numeric: true },
  { name: 'bug_group', description: 'Group', mailhead: true },
  { name: 'estimated_time', description: 'Estimated Hours', mailhead: true, buglist: true, numeric: true },
  { name: 'remaining_time', description: 'Remaining Hours', buglist: true, numeric: true },
  { name: 'deadline', description: 'Deadline', type: FieldType.DATETIME, mailhead: true, buglist: true },
  { name: 'commenter', description: 'Commenter' },
  { name: 'flagtypes.name', description: 'Flags', buglist: true },
  { name: 'requestees.login_name', description: 'Flag Requestee' },
  { name: 'setters.login_name', description: 'Flag Setter' },
  { name: 'work_time', description: 'Hours Worked', buglist: true, numeric: true },
  { name: 'percentage_complete', description: 'Percentage Complete', buglist: true, numeric: true },
  { name: 'content', description: 'Content' },
  { name: 'attach_data.thedata', description: 'Attachment data' },
  { name: 'owner_idle_time', description: 'Time Since Assignee Touched' },
  { name: 'see_also', description: 'See Also', type: FieldType.BUG_URLS },
  { name: 'tag', description: 'Personal Tags', buglist: true },
  { name: 'last_visit_ts', description: 'Last Visit', type: FieldType.DATETIME, buglist: true },
  { name: 'comment_tag', description: 'Comment Tag' },
  { name: 'days_elapsed', description: 'Days since bug changed', buglist: true, numeric: true },
];

/** Statuses of a fresh install (workflow.md), in sort order. */
export const STATUSES: ReadonlyArray<{ value: string; isOpen: boolean }> = [
  { value: 'UNCONFIRMED', isOpen: true },
  { value: 'CONFIRMED', isOpen: true },
  { value: 'IN_PROGRESS', isOpen: true },
  { value: 'RESOLVED', isOpen: false },
  { value: 'VERIFIED', isOpen: false },
];

/** The other select fields' initial values, each list sorted 100, 200, … */
export const SELECT_FIELD_VALUES: Readonly<Record<string, readonly string[]>> = {
  resolution: ['', 'FIXED', 'INVALID', 'WONTFIX', 'DUPLICATE', 'WORKSFORME'],
  bug_severity: ['blocker', 'critical', 'major', 'normal', 'minor', 'trivial', 'enhancement'],
  priority: ['Highest', 'High', 'Normal', 'Low', 'Lowest', '---'],
  op_sys: ['All', 'Windows', 'Mac OS', 'Linux', 'Other'],
  rep_platform: ['All', 'PC', 'Macintosh', 'Other'],
};

/** Default workflow: [from (null = a bug being filed), to]. No transition requires a comment. */
export const WORKFLOW: ReadonlyArray<[string | null, string]> = [
  [null, 'UNCONFIRMED'], [null, 'CONFIRMED'], [null, 'IN_PROGRESS'],
  ['UNCONFIRMED', 'CONFIRMED'], ['UNCONFIRMED', 'IN_PROGRESS'], ['UNCONFIRMED', 'RESOLVED'],
  ['CONFIRMED', 'IN_PROGRESS'], ['CONFIRMED', 'RESOLVED'],
  ['IN_PROGRESS', 'CONFIRMED'], ['IN_PROGRESS', 'RESOLVED'],
  ['RESOLVED', 'UNCONFIRMED'], ['RESOLVED', 'CONFIRMED'], ['RESOLVED', 'VERIFIED'],
  ['VERIFIED', 'UNCONFIRMED'], ['VERIFIED', 'CONFIRMED'],
];

/** The default classification with its test product, component, version and milestone. */
export const TEST_PRODUCT: TestProduct = {
  classification: { name: 'Unclassified', description: 'Not assigned to any classification' },
  product: {
    name: 'TestProduct',
    description: 'This is a test product. This ought to be blown away and replaced with real stuff in a finished installation of Tracker.',
  },
  component: {
    name: 'TestComponent',
    description: 'This is a test component in the test product database. This ought to be blown away and replaced with real stuff in a finished installation of Tracker.',
  },
  version: 'unspecified',
  milestone: '---',
};
