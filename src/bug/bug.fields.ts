import type { ResourceFields } from '../common/fields/field-selection.js';

/** Custom fields are named `cf_*` (Bugzilla's rule for custom field names). */
export const isCustomFieldName = (name: string): boolean => name.startsWith('cf_');

/** The time-tracking fields of Bugzilla (TIMETRACKING_FIELDS). */
export const TIME_TRACKING_FIELDS: ReadonlySet<string> = new Set([
  'estimated_time', 'remaining_time', 'work_time', 'actual_time', 'percentage_complete', 'deadline',
]);

const USER_DETAIL: ResourceFields = {};

/** BMO's triage_owner_detail: an extra field whose subfields are extra too (its _user_to_hash with ['extra']). */
const EXTRA_USER_DETAIL: ResourceFields = { extra: ['id', 'real_name', 'name', 'email'] };

/**
 * How include_fields / exclude_fields see a Bug (misc.md): `tags` is extra, `cf_*` custom, and each `*_detail`
 * object follows its base field (`include_fields=assigned_to` returns `assigned_to_detail` too; its subfields
 * are `assigned_to.id`, `assigned_to.name` …).
 */
export const BUG_FIELDS: ResourceFields = {
  // BMO's extra fields are only shown with the bmo_bug_fields parameter on (issue 43).
  extra: ['tags', 'filed_via', 'triage_owner', 'last_change_time_non_bot'],
  isCustom: isCustomFieldName,
  linked: { assigned_to_detail: 'assigned_to', creator_detail: 'creator', qa_contact_detail: 'qa_contact', cc_detail: 'cc', triage_owner_detail: 'triage_owner' },
  nested: { assigned_to_detail: USER_DETAIL, creator_detail: USER_DETAIL, qa_contact_detail: USER_DETAIL, cc_detail: USER_DETAIL, triage_owner_detail: EXTRA_USER_DETAIL },
};
