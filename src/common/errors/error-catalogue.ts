/**
 * The error catalogue: every error the service can give, with its Bugzilla 5.0 code, HTTP status and message.
 * Thrown by name (`throw TrackerError.of(Errors.BUG_NOT_FOUND, { id })`); the exception filter renders it.
 * Codes and statuses follow Bugzilla 5.0's; a new error is one entry here.
 */

export interface ErrorDefinition<P = Record<string, unknown>> {
  /** Bugzilla's internal error name (stable, useful in logs). */
  readonly name: string;
  readonly code: number;
  readonly httpStatus: number;
  readonly message: (params: P) => string;
}

/** REST_STATUS_CODE_MAP of Bugzilla 5.0: everything unmapped is 400. */
export function httpStatusForCode(code: number): number {
  if (code === 51 || code === 101 || code === 32614) return 404;
  if ([102, 106, 109, 110, 113, 115, 120, 300, 301, 302, 303, 304, 410, 504, 505].includes(code)) return 401;
  return 400;
}

// The parameters of each message are typed loosely on purpose: callers pass the facts they have.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- message facts are whatever the thrower knows
export type ErrorFacts = Record<string, any>;
type P = ErrorFacts;

function define(name: string, code: number, message: (p: P) => string, httpStatus = httpStatusForCode(code)) {
  return { name, code, httpStatus, message } satisfies ErrorDefinition<P>;
}

const list = (v: unknown) => (Array.isArray(v) ? v.join(', ') : String(v ?? ''));

export const Errors = {
  // ---- Generic (50-99)
  OBJECT_NOT_SPECIFIED: define('object_not_specified', 50, (p) => `You must select/enter a ${p.kind}.`),
  REASSIGN_TO_EMPTY: define('reassign_to_empty', 50, () => 'You cannot reassign to a bug to nobody: a new assignee address is needed.'),
  PARAM_REQUIRED: define('param_required', 50, (p) => `The function ${p.function ?? 'you called'} requires a ${p.param} argument, and that argument was not set.`),
  PARAMS_REQUIRED: define('params_required', 50, (p) => `The function ${p.function ?? 'you called'} requires that you set one of the following parameters: ${list(p.params)}`),
  UNDEFINED_FIELD: define('undefined_field', 50, (p) => `Form field ${p.field} was not defined.`),
  OBJECT_DOES_NOT_EXIST: define('object_does_not_exist', 51, (p) =>
    p.name !== undefined
      ? `There is no ${p.kind} named '${p.name}'${p.product ? ` in the '${p.product}' product` : ''}.`
      : `There is no ${p.kind} with the id '${p.id}'.`),
  PARAM_MUST_BE_NUMERIC: define('param_must_be_numeric', 52, (p) => `Invalid parameter passed to ${p.function ?? 'the function'}. It must be numeric: ${p.param}.`),
  ID_OUT_OF_RANGE: define('param_must_be_numeric', 52, (p) => `'${p.value}' is not a valid id for ${p.param}: ids are at most 2147483647.`),
  NUMBER_NOT_NUMERIC: define('number_not_numeric', 52, (p) => `The value '${p.num}' in the ${p.field} field is not a number.`),
  PARAM_INVALID: define('param_invalid', 53, (p) => `'${p.param}' is not a valid parameter for the ${p.function ?? 'function'} function.`),
  NUMBER_TOO_LARGE: define('number_too_large', 54, (p) => `The value '${p.num}' in the ${p.field} field is more than the maximum allowable value of '${p.max}'.`),
  NUMBER_TOO_SMALL: define('number_too_small', 55, (p) => `The value '${p.num}' in the ${p.field} field is less than the minimum allowable value of '${p.min}'.`),
  ILLEGAL_DATE: define('illegal_date', 56, (p) => `'${p.date}' is not a legal date.${p.format ? ` Please use the format '${p.format}'.` : ''}`),
  PARAM_INTEGER_REQUIRED: define('param_integer_required', 57, (p) => `The function requires that the ${p.param} argument be an integer.`),
  PARAM_SCALAR_ARRAY_REQUIRED: define('param_scalar_array_required', 58, (p) => `The function requires that ${p.param} be an array of plain values.`),

  // ---- Bugs (100-199)
  IMPROPER_BUG_ID: define('improper_bug_id_field_value', 100, (p) =>
    p.value === undefined || p.value === '' ? 'You must enter a valid bug number!' : `'${p.value}' is not a valid bug number nor an alias to a bug.`),
  BUG_NOT_FOUND: define('bug_id_does_not_exist', 101, (p) => `Bug #${p.id} does not exist.`),
  BUG_ACCESS_DENIED: define('bug_access_denied', 102, (p) => `You are not authorized to access bug #${p.id}.`),
  BUG_ACCESS_QUERY: define('bug_access_query', 102, (p) => `You are not authorized to access bug #${p.id}. To see this bug, you must first log in to an account with the appropriate permissions.`),
  ALIAS_TOO_LONG: define('alias_too_long', 103, () => 'Bug aliases cannot be longer than 40 characters.'),
  ALIAS_IN_USE: define('alias_in_use', 103, (p) => `${p.alias} has already been taken as an alias by bug ${p.bug_id}.`),
  ALIAS_IS_NUMERIC: define('alias_is_numeric', 103, (p) => `You tried to give this bug the alias '${p.alias}', but aliases cannot be merely numbers, since they could then be confused with bug IDs.`),
  ALIAS_HAS_COMMA_OR_SPACE: define('alias_has_comma_or_space', 103, (p) => `The alias you entered, '${p.alias}', cannot contain commas or spaces.`),
  MULTIPLE_ALIAS_NOT_ALLOWED: define('multiple_alias_not_allowed', 103, () => 'You cannot set aliases when modifying multiple bugs at once.'),
  ILLEGAL_FIELD: define('illegal_field', 104, (p) => `A legal ${p.field} was not set.`),
  FREETEXT_TOO_LONG: define('freetext_too_long', 104, (p) => `The text you entered in the ${p.field} field is too long (${p.length} characters, above the maximum length allowed of ${p.max ?? 255} characters).`),
  REQUIRE_COMPONENT: define('require_component', 105, () => 'You must choose a component to file this bug in.'),
  COMPONENT_NAME_TOO_LONG: define('component_name_too_long', 105, (p) => `The name of a component is limited to 64 characters. '${p.name}' is too long.`),
  PRODUCT_UNKNOWN_COMPONENT: define('product_unknown_component', 105, (p) => `Product '${p.product}' has no component named '${p.component}'.`),
  NO_PRODUCTS: define('no_products', 106, () => 'Either no products have been defined to enter bugs against or you have not been given access to any.'),
  ENTRY_ACCESS_DENIED: define('entry_access_denied', 106, (p) => `Either the product '${p.product}' does not exist or you don't have access to it to enter new bugs.`),
  PRODUCT_ACCESS_DENIED: define('product_access_denied', 106, (p) => `Either the product '${p.product ?? p.id}' does not exist or you don't have access to it.`),
  PRODUCT_DISABLED: define('product_disabled', 106, (p) => `Sorry, entering a bug into the product '${p.product}' has been disabled.`),
  REQUIRE_SUMMARY: define('require_summary', 107, () => 'You must enter a summary for this bug.'),
  INVALID_FIELD_NAME: define('invalid_field_name', 108, (p) => `Can't use ${p.field} as a field name.`),
  PRODUCT_EDIT_DENIED: define('product_edit_denied', 109, (p) => `You are not permitted to edit bugs in product ${p.product}.`),
  COMMENT_IS_PRIVATE: define('comment_is_private', 110, (p) => `Comment id ${p.id} is private.`),
  COMMENT_ID_INVALID: define('comment_id_invalid', 111, (p) => `${p.id} is not a valid comment id.`),
  BUG_URL_INVALID: define('bug_url_invalid', 112, (p) => `'${p.url}' is not a valid URL to a bug${p.reason ? `: ${p.reason}` : '.'}`),
  BUG_URL_TOO_LONG: define('bug_url_too_long', 112, (p) => `Bug URLs can not be longer than 255 characters long. '${p.url}' is too long.`),
  USER_NOT_INSIDER: define('user_not_insider', 113, () => 'Sorry, you are not allowed to change the privacy of comments or attachments.'),
  COMMENT_TOO_LONG: define('comment_too_long', 114, () => 'Comments cannot be longer than 65,535 characters.'),
  ILLEGAL_CHANGE: define('illegal_change', 115, (p) =>
    `You tried to change the ${p.field} field ${p.oldvalue !== undefined ? `from '${p.oldvalue}' ` : ''}${p.newvalue !== undefined ? `to '${p.newvalue}' ` : ''}, but only ${p.privs === 'time_tracking' ? 'a user with the required permissions' : 'the assignee, the reporter or a user with the required permissions'} may change that field.`),
  DEPENDENCY_LOOP_SINGLE: define('dependency_loop_single', 116, () => "You can't make a bug block itself or depend on itself."),
  DEPENDENCY_LOOP_MULTI: define('dependency_loop_multi', 116, (p) => `Dependency loop detected! The following bug(s) would appear on both the "depends on" and "blocks" parts of the dependency tree if these changes are made: ${list(p.deps)}`),
  COMMENT_INVALID_ISPRIVATE: define('comment_invalid_isprivate', 117, (p) => `You tried to modify the privacy of comment id ${p.id}, but that is not a valid comment on this bug.`),
  DUPE_LOOP_DETECTED: define('dupe_loop_detected', 118, (p) => `You cannot mark bug ${p.bug_id} as a duplicate of ${p.dupe_of}, because bug ${p.dupe_of} is already a duplicate of bug ${p.bug_id} (or marking it would create a loop).`),
  DUPE_ID_REQUIRED: define('dupe_id_required', 119, () => 'You must specify a bug number of which this bug is a duplicate.'),
  GROUP_INVALID_REMOVAL: define('group_invalid_removal', 120, (p) => `You tried to remove bug ${p.bug_id} from the '${p.name}' group, but either this group does not exist, or you are not allowed to remove bugs from this group in the '${p.product}' product.`),
  GROUP_RESTRICTION_NOT_ALLOWED: define('group_restriction_not_allowed', 120, (p) => `You tried to restrict ${p.bug_id ? `bug ${p.bug_id}` : 'a new bug'} to the '${p.name}' group, but either this group does not exist, or you are not allowed to restrict bugs to this group in the '${p.product}' product.`),
  MISSING_RESOLUTION: define('missing_resolution', 121, (p) => `A valid resolution is required to mark bugs as ${p.status}.`),
  RESOLUTION_NOT_ALLOWED: define('resolution_not_allowed', 122, () => 'You cannot set a resolution for open bugs.'),
  ILLEGAL_BUG_STATUS_TRANSITION: define('illegal_bug_status_transition', 123, (p) =>
    p.old ? `You are not allowed to change the bug status from ${p.old} to ${p.new}.` : `You are not allowed to file new bugs with the ${p.new} status.`),
  COMMENT_TAG_DISABLED: define('comment_tag_disabled', 125, () => 'Comment tagging is disabled.'),
  COMMENT_TAG_INVALID: define('comment_tag_invalid', 126, (p) => `The comment tag "${p.tag}" contains invalid characters or words.`),
  COMMENT_TAG_TOO_LONG: define('comment_tag_too_long', 127, (p) => `Comment tags cannot be longer than 24 characters ("${p.tag}").`),
  COMMENT_TAG_TOO_SHORT: define('comment_tag_too_short', 128, (p) => `Comment tags must be at least 3 characters ("${p.tag}").`),
  FLAG_STATUS_INVALID: define('flag_status_invalid', 129, (p) => `The flag status '${p.status}' ${p.id ? `for flag ID #${p.id} ` : ''}is invalid.`),
  FLAG_UPDATE_DENIED: define('flag_update_denied', 130, (p) => `You tried to ${p.action ?? 'change'} the '${p.name}' flag, but only a user with the required permissions may make this change.`),
  FLAG_TYPE_REQUESTEE_DISABLED: define('flag_type_requestee_disabled', 131, (p) => `You cannot ask a specific person for the '${p.name}' flag.`),
  FLAG_NOT_UNIQUE: define('flag_not_unique', 132, (p) => `The flag '${p.value}' has been set multiple times. You must specify the id value to update the flag.`),
  FLAG_TYPE_NOT_UNIQUE: define('flag_type_not_unique', 133, (p) => `The flag type '${p.value}' matches several flag types. You must specify the type id value to update or add a flag.`),
  FLAG_TYPE_INACTIVE: define('flag_type_inactive', 134, (p) => `The flag type '${p.type}' is inactive and cannot be used to create new flags.`),

  // ---- Authentication (300-410)
  INVALID_LOGIN_OR_PASSWORD: define('invalid_login_or_password', 300, (p) =>
    `The login or password you entered is not valid.${p.remaining !== undefined && p.remaining <= 2 ? ` If you fail ${p.remaining} more time(s), your account will be locked out for 30 minutes.` : ''}`),
  ACCOUNT_DISABLED: define('account_disabled', 301, (p) => `${p.reason} If you believe your account should be restored, please send email to ${p.maintainer ?? 'the maintainer'} explaining why.`),
  AUTH_INVALID_EMAIL: define('auth_invalid_email', 302, (p) => `The address '${p.addr}' failed syntax checking.`),
  AUTH_FAILURE: define('auth_failure', 304, (p) =>
    p.reason === 'cant_bless'
      ? `You are not allowed to bless users for the group '${p.group}'.`
      : p.reason === 'not_visible'
        ? `You are not allowed to see user ${p.userid ?? ''}.`.replace('  ', ' ')
        : `Sorry, you aren't a member of the '${p.group}' group, and only users with that privilege may ${p.action} ${p.object}.`),
  PASSWORD_NOT_COMPLEX: define('password_not_complex', 305, (p) => `The password must contain ${p.rule}.`),
  PASSWORD_TOO_SHORT: define('password_too_short', 502, () => 'The password must be at least 6 characters long.'),
  API_KEY_NOT_VALID: define('api_key_not_valid', 306, () => 'The API key you specified is invalid. Please check that you typed it correctly.'),
  API_KEY_REVOKED: define('api_key_revoked', 306, () => 'The API key you specified has been revoked by the user that created it.'),
  LOGIN_REQUIRED: define('login_required', 410, () => 'You must log in before using this part of Tracker.'),
  INVALID_COOKIES_OR_TOKEN: define('invalid_cookies_or_token', 32000, () => 'The cookies or token provide were not valid or have expired. You may login again to get a new cookie or token.'),
  ACCOUNT_LOCKED: define('account_locked', 32000, (p) => `Your IP (${p.ip}) has been locked out of this account until ${p.until}, as you have exceeded the maximum number of login attempts.`),

  // ---- Users (500-599)
  ACCOUNT_EXISTS: define('account_exists', 500, (p) => `There is already an account with the login name ${p.email}.`),
  ILLEGAL_EMAIL_ADDRESS: define('illegal_email_address', 501, (p) => `The e-mail address you entered (${p.addr}) didn't pass our syntax checking for a legal email address. ${p.desc ?? ''}`.trim()),
  INVALID_USERNAME: define('invalid_username', 504, (p) => `The name ${p.name} is not a valid username.`),
  INVALID_USER_GROUP: define('invalid_user_group', 504, (p) => `${list(p.users)} cannot edit ${p.product ? `bugs in '${p.product}'` : `bug ${p.bug_id}`}.`),
  USER_ACCESS_BY_ID_DENIED: define('user_access_by_id_denied', 505, () => 'Logged-out users cannot use the "ids" argument to this function to access any user information.'),
  USER_ACCESS_BY_MATCH_DENIED: define('user_access_by_match_denied', 505, () => 'Logged-out users cannot use the "match" argument to this function to access any user information.'),
  USER_LOGIN_REQUIRED: define('user_login_required', 32000, () => 'You must enter a login name for the new user.'),

  // ---- Attachments (600-699)
  FILE_TOO_LARGE: define('file_too_large', 600, (p) => `The file you are trying to attach is ${p.filesize} kilobytes (KB) in size. Attachments cannot be more than ${p.max} KB.`),
  INVALID_CONTENT_TYPE: define('invalid_content_type', 601, (p) => `The content type '${p.contenttype}' is invalid. Valid types must be of the form foo/bar where foo is one of application, audio, image, message, model, multipart, text, video.`),
  FILE_NOT_SPECIFIED: define('file_not_specified', 603, () => 'You did not specify a file to attach.'),
  MISSING_ATTACHMENT_DESCRIPTION: define('missing_attachment_description', 604, () => 'You must enter a description for the attachment.'),
  // Bugzilla decodes leniently (MIME::Base64 skips what is not base64); Tracker refuses it rather than store garbage.
  INVALID_BASE64: define('invalid_base64', 53, (p) => `The ${p.param} of the ${p.function} function is not valid base64.`),
  ZERO_LENGTH_FILE: define('zero_length_file', 606, () => 'The file you are trying to attach is empty, does not exist, or you don\'t have permission to read it.'),
  INVALID_ATTACH_ID: define('invalid_attach_id', 32000, (p) => `The attachment id ${p.attach_id} is invalid.`),
  ILLEGAL_ATTACHMENT_EDIT: define('illegal_attachment_edit', 32000, (p) => `You are not authorized to edit attachment ${p.attach_id}.`),
  ILLEGAL_ATTACHMENT_EDIT_BUG: define('illegal_attachment_edit_bug', 32000, (p) => `You are not authorized to edit attachments on bug ${p.bug_id}.`),

  // ---- Products (700-799)
  PRODUCT_BLANK_NAME: define('product_blank_name', 700, () => 'You must enter a name for the product.'),
  PRODUCT_NAME_TOO_LONG: define('product_name_too_long', 701, (p) => `The name of a product is limited to 64 characters. '${p.name}' is too long.`),
  PRODUCT_NAME_ALREADY_IN_USE: define('product_name_already_in_use', 702, (p) => `The product name '${p.product}' already exists.`),
  PRODUCT_NAME_DIFF_IN_CASE: define('product_name_diff_in_case', 702, (p) => `The product name '${p.product}' differs from existing product '${p.existing_product}' only in case.`),
  PRODUCT_MUST_HAVE_DESCRIPTION: define('product_must_have_description', 703, () => 'You must enter a description for this product.'),
  PRODUCT_MUST_HAVE_VERSION: define('product_must_have_version', 704, () => 'You must enter a valid version to create a new product.'),
  PRODUCT_MUST_DEFINE_DEFAULTMILESTONE: define('product_must_define_defaultmilestone', 705, (p) => `You must define a milestone named '${p.milestone}' before it can be the default milestone of product '${p.product}'.`),
  PRODUCT_ADMIN_DENIED: define('product_admin_denied', 706, (p) => `You are not allowed to edit properties of product '${p.product}'.`),

  // ---- Groups (800-899)
  EMPTY_GROUP_NAME: define('empty_group_name', 800, () => 'You must enter a name for the group.'),
  GROUP_EXISTS: define('group_exists', 801, (p) => `The group ${p.name} already exists.`),
  EMPTY_GROUP_DESCRIPTION: define('empty_group_description', 802, () => 'You must enter a description for the group.'),
  INVALID_REGEXP: define('invalid_regexp', 803, (p) => `The regular expression you entered is invalid${p.regexp ? `: '${p.regexp}'` : ''}.`),
  INVALID_GROUP_NAME: define('invalid_group_name', 804, (p) => `The group you specified, ${p.name}, is not valid here.`),
  GROUP_CANNOT_VIEW: define('group_cannot_view', 805, () => 'In order to view groups, you need to be a member of the editusers or creategroups group, or have bless privileges on at least one group.'),
  GROUP_NOT_VISIBLE: define('group_not_visible', 32000, (p) => `You are not allowed to see members of the '${p.name}' group.`),
  SYSTEM_GROUP_RENAME: define('system_group_rename', 32000, (p) => `'${p.name}' is a system group: its name cannot be changed.`),

  // ---- Classifications, search, flag types, components
  CLASSIFICATION_NOT_ENABLED: define('auth_classification_not_enabled', 900, () => 'Sorry, classification is not enabled.'),
  BUGLIST_PARAMETERS_REQUIRED: define('buglist_parameters_required', 1000, () => "You may not search, or create saved searches, without any search terms."),
  FLAG_TYPE_NAME_INVALID: define('flag_type_name_invalid', 1101, (p) => `The name '${p.name}' must be 1-50 characters long and must not contain any spaces or commas.`),
  FLAG_TYPE_DESCRIPTION_INVALID: define('flag_type_description_invalid', 1102, () => 'The flag type description is invalid: it must not be empty.'),
  FLAG_TYPE_CC_LIST_INVALID: define('flag_type_cc_list_invalid', 1103, () => 'The CC list must be 200 characters or less.'),
  FLAG_TYPE_SORTKEY_INVALID: define('flag_type_sortkey_invalid', 1104, (p) => `The sort key '${p.sortkey}' must be an integer between 0 and 32767 inclusive.`),
  FLAG_TYPE_NOT_EDITABLE: define('flag_type_not_editable', 1105, (p) => `You may only edit the inclusions and exclusions of the flag type '${p.name}'.`),
  COMPONENT_ALREADY_EXISTS: define('component_already_exists', 1200, (p) => `The product '${p.product}' already has a component named '${p.name}'.`),
  COMPONENT_IS_LAST: define('component_is_last', 1201, (p) => `'${p.name}' is the last component of '${p.product}' and cannot be deleted.`),
  COMPONENT_HAS_BUGS: define('component_has_bugs', 1202, (p) => `The component '${p.name}' still has ${p.count} bug(s) and cannot be deleted.`),
  COMPONENT_BLANK_NAME: define('component_blank_name', 1210, () => 'You must enter a name for the component.'),
  USER_NOT_INVOLVED: define('user_not_involved', 1300, (p) => `You are not involved in bug ${p.id}.`),
  COMPONENT_BLANK_DESCRIPTION: define('component_blank_description', 1211, (p) => `You must enter a non-blank description for component '${p.name}'.`),
  MULTIPLE_COMPONENTS_UPDATE_NOT_ALLOWED: define('multiple_components_update_not_allowed', 1212, () => 'Only one component of a product can be renamed to a given name.'),
  COMPONENT_NEED_INITIALOWNER: define('component_need_initialowner', 1213, () => 'A default assignee is required for the component.'),

  // ---- Workflow and update errors without a table entry (32000)
  COMMENT_REQUIRED: define('comment_required', 32000, (p) => `You have to specify a comment${p.field ? ` when changing the ${p.field}` : ''}.`),
  DUPE_NOT_ALLOWED: define('dupe_not_allowed', 32000, () => 'You cannot mark bugs as duplicates when changing several bugs at once.'),
  FLAG_TYPE_NOT_MULTIPLICABLE: define('flag_type_not_multiplicable', 32000, (p) => `You cannot add a second '${p.type}' flag: that flag type allows only one flag per bug or attachment.`),
  RESOLUTION_CANT_CLEAR: define('resolution_cant_clear', 32000, (p) => `Bug ${p.bug_id} is closed, so you cannot clear its resolution.`),
  STILL_UNRESOLVED_BUGS: define('still_unresolved_bugs', 32000, (p) => `Bug ${p.bug_id} has ${p.count} unresolved dependencies.`),
  MILESTONE_REQUIRED: define('milestone_required', 32000, () => 'You must select a target milestone if you are going to accept this bug.'),
  CC_REMOVE_DENIED: define('cc_remove_denied', 32000, (p) => `You may not remove ${p.login ?? 'other users'} from the CC list of bug ${p.bug_id}: only the assignee, the QA contact or a user with editbugs may remove others.`),
  FLAG_REQUESTEE_UNAUTHORIZED: define('flag_requestee_unauthorized', 32000, (p) => `You asked ${p.requestee} for '${p.flag}' on bug ${p.bug_id}, but that user cannot see the bug.`),
  FLAG_REQUESTEE_UNAUTHORIZED_ATTACHMENT: define('flag_requestee_unauthorized_attachment', 32000, (p) =>
    `You asked ${p.requestee} for '${p.flag}' on attachment ${p.attach_id}, but that attachment is private and that user cannot see it.`),
  FLAG_REQUESTEE_NEEDS_PRIVS: define('flag_requestee_needs_privs', 32000, (p) => `You asked ${p.requestee} for '${p.flag}', but that user is not allowed to grant or deny it.`),
  VALUE_INACTIVE: define('value_inactive', 32000, (p) => `The ${p.class} value '${p.value}' is not active.`),
  REQUIRED_FIELD: define('required_field', 32000, (p) => `A value must be set for the '${p.field}' field.`),
  MISSING_COMPONENT: define('missing_component', 32000, (p) => `Sorry, the product ${p.product} has to have at least one active component in order for you to enter a bug into it.`),
  MISSING_VERSION: define('missing_version', 32000, (p) => `The product '${p.product}' must have at least one active version.`),
  GET_PRODUCTS_INVALID_TYPE: define('get_products_invalid_type', 32000, (p) => `'${p.type}' is not a valid product type: use accessible, selectable or enterable.`),
  FEATURE_DISABLED: define('feature_disabled', 32000, (p) => `The ${p.feature ?? 'requested'} feature is not available.`),
  PARAMETER_INVALID_VALUE: define('parameter_invalid_value', 32000, (p) => `The value of parameter '${p.name}' is invalid: ${p.reason}`),
  UNKNOWN_PARAMETER: define('unknown_parameter', 32000, (p) => `There is no parameter named '${p.name}'.`),
  /** The admin command line's import-bugzilla (docs/import.md): a source or target it will not import from or into. */
  IMPORT_REFUSED: define('import_refused', 32000, (p) => `The import cannot run: ${p.reason}`),

  // ---- Search Bugs without a table entry (32000)
  SEARCH_OPERATOR_INVALID: define('search_field_operator_invalid', 32000, (p) => `Can't use '${p.operator}' as an operator for the ${p.field} field.`),
  ILLEGAL_REGEXP: define('illegal_regexp', 32000, (p) => `The regular expression '${p.value}' is not valid: ${p.reason}`),
  REGEXP_UNSUPPORTED: define('search_regexp_unsupported', 32000, (p) => `Regular expression searches on ${p.field} need the MariaDB/MySQL database; this installation uses SQLite.`),
  QUICKSEARCH_INVALID_QUERY: define('quicksearch_invalid_query', 32000, (p) => `Your quick search is not valid: ${p.reason}`),
  QUICKSEARCH_UNKNOWN_FIELD: define('quicksearch_unknown_field', 32000, (p) => `In your quick search, '${p.field}' is ${p.ambiguous ? `ambiguous (it could be ${list(p.candidates)})` : 'not a known field'}.`),

  // ---- Catalogue administration without a table entry (32000): products, versions, milestones, classifications, keywords, fields
  PRODUCT_ILLEGAL_GROUP: define('product_illegal_group', 32000, (p) => `The group '${p.group}' is not an active bug group, so it cannot control the product.`),
  ILLEGAL_GROUP_CONTROL: define('product_illegal_group_control', 32000, (p) => `'${p.value}' is not a legal ${p.field} value: use na, shown, default or mandatory.`),
  ILLEGAL_GROUP_CONTROL_COMBINATION: define('illegal_group_control_combination', 32000, (p) => `The group controls of '${p.group}' are illegal: ${p.membercontrol}/${p.othercontrol} (member/other) is not an allowed combination.`),
  VERSION_BLANK_NAME: define('version_blank_name', 32000, () => 'You must enter a name for the version.'),
  VERSION_NAME_TOO_LONG: define('version_name_too_long', 32000, (p) => `The name of a version is limited to 64 characters. '${p.name}' is too long.`),
  VERSION_ALREADY_EXISTS: define('version_already_exists', 32000, (p) => `The version '${p.name}' already exists for product '${p.product}'.`),
  MILESTONE_BLANK_NAME: define('milestone_blank_name', 32000, () => 'You must enter a name for the milestone.'),
  MILESTONE_NAME_TOO_LONG: define('milestone_name_too_long', 32000, (p) => `The name of a milestone is limited to 64 characters. '${p.name}' is too long.`),
  MILESTONE_ALREADY_EXISTS: define('milestone_already_exists', 32000, (p) => `The milestone '${p.name}' already exists for product '${p.product}'.`),
  MILESTONE_SORTKEY_INVALID: define('milestone_sortkey_invalid', 32000, (p) => `The sort key '${p.sortkey}' must be an integer between -32768 and 32767.`),
  MILESTONE_IS_DEFAULT: define('milestone_is_default', 32000, (p) => `'${p.name}' is the default milestone of '${p.product}' and cannot be disabled.`),
  CLASSIFICATION_NOT_SPECIFIED: define('classification_not_specified', 32000, () => 'You must enter a name for the classification.'),
  CLASSIFICATION_NAME_TOO_LONG: define('classification_name_too_long', 32000, (p) => `The name of a classification is limited to 64 characters. '${p.name}' is too long.`),
  CLASSIFICATION_ALREADY_EXISTS: define('classification_already_exists', 32000, (p) => `The classification '${p.name}' already exists.`),
  CLASSIFICATION_INVALID_SORTKEY: define('classification_invalid_sortkey', 32000, (p) => `The sort key '${p.sortkey}' must be an integer between 0 and 32767.`),
  KEYWORD_BLANK_NAME: define('keyword_blank_name', 32000, () => 'You must enter a non-blank name for the keyword.'),
  KEYWORD_INVALID_NAME: define('keyword_invalid_name', 32000, (p) => `The keyword '${p.name}' may not contain commas or whitespace and is limited to 64 characters.`),
  KEYWORD_ALREADY_EXISTS: define('keyword_already_exists', 32000, (p) => `A keyword with the name '${p.name}' already exists.`),
  KEYWORD_BLANK_DESCRIPTION: define('keyword_blank_description', 32000, () => 'You must enter a non-blank description for the keyword.'),
  FIELD_MISSING_NAME: define('field_missing_name', 32000, () => 'You must enter a name for the field.'),
  FIELD_INVALID_NAME: define('field_invalid_name', 32000, (p) => `'${p.name}' is not a valid name for a field: use letters, digits and underscores only.`),
  FIELD_ALREADY_EXISTS: define('field_already_exists', 32000, (p) => `The field '${p.name}' already exists.`),
  FIELD_MISSING_DESCRIPTION: define('field_missing_description', 32000, () => 'You must enter a description for the field.'),
  INVALID_CUSTOMFIELD_TYPE: define('invalid_customfield_type', 32000, (p) => `'${p.type}' is not a valid custom field type.`),
  FIELDVALUE_UNDEFINED: define('fieldvalue_undefined', 32000, () => 'You must specify a value for the field.'),
  FIELDVALUE_NAME_TOO_LONG: define('fieldvalue_name_too_long', 32000, (p) => `The value of a field is limited to 64 characters. '${p.value}' is too long.`),
  FLAG_TYPE_TARGET_TYPE_INVALID: define('flag_type_target_type_invalid', 32000, (p) => `'${p.target_type}' is not a flag type target: use bug or attachment.`),
  FIELDVALUE_ALREADY_EXISTS: define('fieldvalue_already_exists', 32000, (p) => `The value '${p.value}' already exists for the ${p.field} field.`),

  // ---- Protocol (JSON-RPC / REST layer)
  JSON_INVALID_PARAMS: define('json_rpc_invalid_params', 32000, (p) => `Could not parse the parameters as JSON: ${p.reason}`),
  BODY_NOT_OBJECT: define('json_rpc_invalid_params', 32000, () => 'The request body must be a JSON object.'),
  BODY_TOO_DEEP: define('json_rpc_invalid_params', 32000, (p) => `The request body nests objects and arrays deeper than ${p.depth} levels.`),
  BODY_TOO_LARGE: define('request_too_large', 32000, (p) => `The request body is larger than the limit of ${p.limit} bytes.`, 413),
  INVALID_CALLBACK: define('json_rpc_invalid_callback', 32611, () => 'The callback name may only contain letters, numbers, and the characters "[]._".'),
  ILLEGAL_CONTENT_TYPE: define('json_rpc_illegal_content_type', 32613, (p) => `When using JSON, the Content-Type of the request must be application/json (it was '${p.contentType}').`),
  REST_INVALID_RESOURCE: define('rest_invalid_resource', 32614, (p) => `A REST API resource was not found for '${p.method} ${p.path}'.`),
  BAD_URL: define('bad_url', 32000, () => 'The URL is not valid: one of its parts is not percent-encoded UTF-8.'),
  URL_TOO_LONG: define('url_too_long', 32000, () => 'A part of the URL path is too long.', 414),
  HEADERS_TOO_LARGE: define('request_header_too_large', 32000, (p) => `The request line and headers together are larger than ${p.limit}.`, 431),
  REQUEST_TIMEOUT: define('request_timeout', 32000, () => 'The request was not received in time.', 408),
  BAD_REQUEST: define('bad_request', 32000, () => 'The request is not valid HTTP.'),
  // ---- XML-RPC and JSON-RPC (issue 45, src/rpc): the protocol's own errors; every method's errors are the REST ones.
  XMLRPC_INVALID_VALUE: define('xmlrpc_invalid_value', -32600, (p) => `'${p.value}' is not a valid value for a <${p.type}> field. (See the XML-RPC specification for details.)`),
  XMLRPC_NOT_WELL_FORMED: define('xmlrpc_not_well_formed', -32700, (p) => `The XML-RPC request is not a well-formed methodCall: ${p.reason}`),
  UNKNOWN_METHOD: define('unknown_method', -32601, (p) => `The requested method '${p.method}' was not found.`),
  JSON_RPC_POST_ONLY: define('json_rpc_post_only', 32610, (p) => `For security reasons, you must use HTTP POST to call the '${p.method}' method.`),
  XMLRPC_ILLEGAL_CONTENT_TYPE: define('xmlrpc_illegal_content_type', 32612, (p) => `When using XML-RPC, you cannot send data as ${p.contentType}. Only text/xml and application/xml are allowed.`),
  JSON_RPC_GET_METHOD_REQUIRED: define('json_rpc_get_method_required', 32000, () => "When using JSON-RPC over GET, you must specify a 'method' parameter."),
  JSON_RPC_GET_INVALID_PARAMS: define('json_rpc_invalid_params', 32000, (p) => `Could not parse the 'params' argument as valid JSON. Error: ${p.reason} Value: ${p.params}`),
  // The JSON-RPC library's own errors (codes below 1000 there), which 5.0 reports as 100000 + code.
  JSON_RPC_PARSE_ERROR: define('json_rpc_parse_error', 100201, () => "Can't parse JSON data."),
  JSON_RPC_METHOD_MISSING: define('json_rpc_method_missing', 100300, () => 'method is nothing.'),
  JSON_RPC_METHOD_INVALID: define('json_rpc_method_invalid', 100301, () => 'method is invalid.'),
  JSON_RPC_NO_SUCH_METHOD: define('json_rpc_no_such_method', 100302, (p) => `No such a method : '${p.method}'.`),
  JSON_RPC_1_0_PARAMS: define('json_rpc_invalid_params', 100400, () => 'Invalid params for JSONRPC 1.0.'),
  DATABASE_UNAVAILABLE: define('database_unavailable', -32001, () => 'The database is not available at the moment. Nothing of this request was saved; please try again.', 503),
  // Beyond 5.0 (issue 40): more requests than the instance can take in time (src/common/http/admission.ts); refused
  // before any work, 503 with Retry-After.
  OVERLOADED: define('overloaded', -32002, () => 'The service is too busy to take this request now. Nothing of it was done; please try again in a moment.', 503),
  // Beyond 5.0 (issue 15): HTTP 429 with Retry-After and X-RateLimit-*; a code of its own outside Bugzilla's ranges.
  RATE_LIMITED: define('rate_limited', -32029, (p) => `Too many ${p.kind} requests: try again in ${p.seconds} seconds.`, 429),
  // Beyond 5.0 (issue 15): webhooks. Codes of their own outside Bugzilla's ranges.
  WEBHOOK_NOT_FOUND: define('webhook_not_found', 10500, (p) => `There is no webhook with the id '${p.id}' that you can see.`, 404),
  WEBHOOK_URL_INVALID: define('webhook_url_invalid', 10501, (p) => `'${p.url}' is not a webhook URL: it must be an absolute http or https URL.`),
  WEBHOOK_URL_INTERNAL: define('webhook_url_internal', 10502, (p) => `The webhook URL '${p.url}' leads to the internal address ${p.address}: webhooks may not post to loopback or private networks.`),
  WEBHOOK_EVENTS_INVALID: define('webhook_events_invalid', 10503, (p) => `A webhook needs one or more events among ${p.events}${p.event ? `: '${p.event}' is none of them` : ''}.`),
  WEBHOOK_NAME_TOO_LONG: define('webhook_name_too_long', 10504, () => 'The name of a webhook is limited to 255 characters.'),
  WEBHOOK_FORMAT_INVALID: define('webhook_format_invalid', 10505, (p) => `'${p.format}' is not a webhook format: it is tracker or bmo.`),
  WEBHOOK_API_KEY_INVALID: define('webhook_api_key_invalid', 10506, (p) => `The webhook's ${p.param} is not usable: ${p.why}.`),
  // Beyond 5.0 (issue 44): the change feed's and Search Bugs' cursors. Codes of their own outside Bugzilla's ranges.
  CURSOR_INVALID: define('cursor_invalid', 10600, (p) => `The ${p.param} cursor is not one this service gave (it is malformed or was altered): pass back the cursor exactly as it was answered.`, 400),
  CHANGE_CURSOR_EXPIRED: define('change_cursor_expired', 10601, (p) => `The changes after this cursor are no longer kept (the feed keeps ${p.days} days): resync with a search, then read the feed from the cursor GET /rest/changes gives without 'since'.`, 410),
  CHANGE_CURSOR_RESYNC: define('change_cursor_resync', 10602, () => 'This cursor was given to another user, or before your groups changed (which changes the bugs you may see): resync with a search, then read the feed from the cursor GET /rest/changes gives without \'since\'.', 410),
  INTERNAL: define('internal_error', -32000, () => 'An internal error occurred. It has been logged.', 500),
} as const;

export type ErrorName = keyof typeof Errors;
