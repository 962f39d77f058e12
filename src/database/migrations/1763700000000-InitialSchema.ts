import type { MigrationInterface, QueryRunner } from 'typeorm';
import { SchemaBuilder } from '../schema-builder.js';

/**
 * The whole schema of the service, for every resource of the spec. Column names follow the API names where they
 * exist (`summary`, `status`, `is_cc_accessible`, …) so that rows map to the public shape without a dictionary.
 * Every column a search filters or sorts on is indexed.
 */
export class InitialSchema1763700000000 implements MigrationInterface {
  name = 'InitialSchema1763700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = new SchemaBuilder(queryRunner);

    // ---- Who: users, groups, memberships, credentials
    await s.createTable('users', [
      s.id(),
      s.str('login_name', 255),
      s.str('email', 255),
      s.str('realname', 255, { default: '' }),
      s.str('cryptpassword', 255, { nullable: true }),
      s.text('login_denied_text'),
      s.bool('email_enabled', true),
      s.datetime('creation_ts'),
      s.datetime('last_seen_date', { nullable: true }),
    ], [{ columns: ['login_name'], unique: true }, { columns: ['realname'] }]);

    await s.createTable('groups', [
      s.id(),
      s.str('name', 255),
      s.text('description'),
      s.bool('is_bug_group', true),
      s.str('user_regexp', 255, { default: '' }),
      s.bool('is_active', true),
      s.str('icon_url', 255, { nullable: true }),
    ], [{ columns: ['name'], unique: true }]);

    // grant_type: 0 = direct, 2 = by user_regexp (Bugzilla's GRANT_DIRECT / GRANT_REGEXP). is_bless: the row grants bless rights.
    await s.createTable('user_group_map', [
      s.int('user_id', { primary: true }),
      s.int('group_id', { primary: true }),
      s.int('is_bless', { primary: true }),
      s.int('grant_type', { primary: true }),
    ], [{ columns: ['group_id'] }]);

    // grant_type: 0 = members of member_id are members of grantor_id, 1 = may bless it, 2 = may see its members.
    await s.createTable('group_group_map', [
      s.int('member_id', { primary: true }),
      s.int('grantor_id', { primary: true }),
      s.int('grant_type', { primary: true }),
    ], [{ columns: ['grantor_id'] }]);

    await s.createTable('api_keys', [
      s.id(),
      s.int('user_id'),
      s.str('key_hash', 64),
      s.str('description', 255, { default: '' }),
      s.bool('revoked', false),
      s.datetime('creation_ts'),
      s.datetime('last_used', { nullable: true }),
    ], [{ columns: ['key_hash'], unique: true }, { columns: ['user_id'] }]);

    await s.createTable('login_tokens', [
      s.id(),
      s.int('user_id'),
      s.str('token_hash', 64),
      s.str('ip_addr', 64, { nullable: true }),
      s.datetime('last_used'),
    ], [{ columns: ['token_hash'], unique: true }, { columns: ['user_id'] }, { columns: ['last_used'] }]);

    await s.createTable('login_failures', [
      s.id(),
      s.int('user_id'),
      s.str('ip_addr', 64),
      s.datetime('login_time'),
    ], [{ columns: ['user_id', 'ip_addr', 'login_time'] }]);

    await s.createTable('saved_searches', [
      s.id(), s.int('user_id'), s.str('name', 64), s.text('query'),
    ], [{ columns: ['user_id', 'name'], unique: true }]);
    await s.createTable('saved_reports', [
      s.id(), s.int('user_id'), s.str('name', 64), s.text('query'),
    ], [{ columns: ['user_id', 'name'], unique: true }]);

    // ---- What bugs are filed against
    await s.createTable('classifications', [
      s.id(), s.str('name', 64), s.text('description'), s.int('sortkey', { default: 0 }),
    ], [{ columns: ['name'], unique: true }]);

    await s.createTable('products', [
      s.id(),
      s.str('name', 64),
      s.int('classification_id', { default: 1 }),
      s.text('description'),
      s.bool('is_active', true),
      s.str('default_milestone', 64, { default: '---' }),
      s.bool('has_unconfirmed', true),
    ], [{ columns: ['name'], unique: true }, { columns: ['classification_id'] }]);

    await s.createTable('components', [
      s.id(),
      s.str('name', 64),
      s.int('product_id'),
      s.int('default_assignee_id'),
      s.int('default_qa_contact_id', { nullable: true }),
      s.text('description'),
      s.bool('is_active', true),
      s.int('sortkey', { default: 0 }),
    ], [{ columns: ['product_id', 'name'], unique: true }, { columns: ['name'] }]);

    await s.createTable('component_cc', [
      s.int('component_id', { primary: true }), s.int('user_id', { primary: true }),
    ], [{ columns: ['user_id'] }]);

    await s.createTable('versions', [
      s.id(), s.str('value', 64), s.int('product_id'), s.bool('is_active', true), s.int('sortkey', { default: 0 }),
    ], [{ columns: ['product_id', 'value'], unique: true }]);

    await s.createTable('milestones', [
      s.id(), s.str('value', 64), s.int('product_id'), s.bool('is_active', true), s.int('sortkey', { default: 0 }),
    ], [{ columns: ['product_id', 'value'], unique: true }]);

    // Bugzilla's product group controls. membercontrol/othercontrol: 0 NA, 1 Shown, 2 Default, 3 Mandatory.
    await s.createTable('group_control_map', [
      s.int('product_id', { primary: true }),
      s.int('group_id', { primary: true }),
      s.bool('entry', false),
      s.int('membercontrol', { default: 0 }),
      s.int('othercontrol', { default: 0 }),
      s.bool('canedit', false),
      s.bool('editcomponents', false),
      s.bool('editbugs', false),
      s.bool('canconfirm', false),
    ], [{ columns: ['group_id'] }]);

    await s.createTable('keywords', [
      s.id(), s.str('name', 64), s.text('description'), s.bool('is_active', true),
    ], [{ columns: ['name'], unique: true }]);

    // ---- Fields, their values and the workflow
    // type: Bugzilla's field type numbers (0 unknown, 1 free text, 2 single select, 3 multi select, 4 text area,
    // 5 date/time, 6 bug id, 7 bug urls, 8 keywords, 9 date, 10 integer).
    await s.createTable('fielddefs', [
      s.id(),
      s.str('name', 64),
      s.str('description', 255),
      s.int('type', { default: 0 }),
      s.bool('custom', false),
      s.bool('obsolete', false),
      s.bool('mailhead', false),
      s.int('sortkey', { default: 0 }),
      s.bool('enter_bug', false),
      s.bool('buglist', false),
      s.bool('is_mandatory', false),
      s.bool('is_numeric', false),
      s.int('visibility_field_id', { nullable: true }),
      s.int('value_field_id', { nullable: true }),
      s.str('reverse_desc', 255, { nullable: true }),
    ], [{ columns: ['name'], unique: true }, { columns: ['sortkey'] }]);

    // Legal values of every select field (status, resolution, severity, priority, op_sys, platform, custom selects).
    await s.createTable('field_values', [
      s.id(),
      s.int('field_id'),
      s.str('value', 64),
      s.int('sortkey', { default: 0 }),
      s.bool('is_active', true),
      s.int('is_open', { nullable: true }),
      s.int('visibility_value_id', { nullable: true }),
    ], [{ columns: ['field_id', 'value'], unique: true }]);

    // from_status_id NULL is the pseudo-status of a bug being filed.
    await s.createTable('status_workflow', [
      s.id(), s.int('from_status_id', { nullable: true }), s.int('to_status_id'), s.bool('require_comment', false),
    ], [{ columns: ['from_status_id', 'to_status_id'] }]);

    // ---- Bugs and their multi-valued fields
    await s.createTable('bugs', [
      s.id(),
      s.str('summary', 255),
      s.str('status', 64),
      s.str('resolution', 64, { default: '' }),
      s.int('product_id'),
      s.int('component_id'),
      s.str('version', 64),
      s.str('target_milestone', 64, { default: '---' }),
      s.str('op_sys', 64),
      s.str('platform', 64),
      s.str('priority', 64),
      s.str('severity', 64),
      s.int('reporter_id'),
      s.int('assigned_to_id'),
      s.int('qa_contact_id', { nullable: true }),
      s.text('url'),
      s.text('whiteboard'),
      s.bool('is_confirmed', true),
      s.bool('is_creator_accessible', true),
      s.bool('is_cc_accessible', true),
      s.hours('estimated_time'),
      s.hours('remaining_time'),
      s.date('deadline'),
      s.datetime('creation_time'),
      s.datetime('last_change_time'),
    ], [
      { columns: ['product_id', 'status'] },
      { columns: ['component_id'] },
      { columns: ['status'] },
      { columns: ['resolution'] },
      { columns: ['version'] },
      { columns: ['target_milestone'] },
      { columns: ['op_sys'] },
      { columns: ['platform'] },
      { columns: ['priority'] },
      { columns: ['severity'] },
      { columns: ['reporter_id'] },
      { columns: ['assigned_to_id'] },
      { columns: ['qa_contact_id'] },
      { columns: ['creation_time'] },
      { columns: ['last_change_time'] },
      { columns: ['summary'] },
    ]);

    await s.createTable('bug_aliases', [s.id(), s.str('alias', 40), s.int('bug_id')],
      [{ columns: ['alias'], unique: true }, { columns: ['bug_id'] }]);
    await s.createTable('bug_cc', [s.int('bug_id', { primary: true }), s.int('user_id', { primary: true })],
      [{ columns: ['user_id'] }]);
    await s.createTable('bug_keywords', [s.int('bug_id', { primary: true }), s.int('keyword_id', { primary: true })],
      [{ columns: ['keyword_id'] }]);
    // A row says: blocked_id cannot be fixed before depends_on_id.
    await s.createTable('bug_dependencies', [s.int('blocked_id', { primary: true }), s.int('depends_on_id', { primary: true })],
      [{ columns: ['depends_on_id'] }]);
    await s.createTable('bug_duplicates', [s.int('dupe_id', { primary: true }), s.int('dupe_of_id')],
      [{ columns: ['dupe_of_id'] }]);
    await s.createTable('bug_groups', [s.int('bug_id', { primary: true }), s.int('group_id', { primary: true })],
      [{ columns: ['group_id'] }]);
    await s.createTable('bug_see_also', [s.id(), s.int('bug_id'), s.str('url', 255)],
      [{ columns: ['bug_id', 'url'], unique: true }]);
    // Custom field values: one row per value (a multi-select field has several rows for one bug).
    await s.createTable('bug_custom_values', [s.id(), s.int('bug_id'), s.int('field_id'), s.text('value')],
      [{ columns: ['bug_id', 'field_id'] }, { columns: ['field_id'] }]);

    // Personal tags ("tags" on bugs) of a user.
    await s.createTable('tags', [s.id(), s.int('user_id'), s.str('name', 64)],
      [{ columns: ['user_id', 'name'], unique: true }]);
    await s.createTable('bug_tags', [s.int('bug_id', { primary: true }), s.int('tag_id', { primary: true })],
      [{ columns: ['tag_id'] }]);

    await s.createTable('bug_user_last_visit', [s.id(), s.int('user_id'), s.int('bug_id'), s.datetime('last_visit_ts')],
      [{ columns: ['user_id', 'bug_id'], unique: true }, { columns: ['bug_id'] }]);

    // ---- History and audit
    // field_name uses the API names of `changes` (status, summary, flagtypes.name, attachments.isobsolete …).
    await s.createTable('bug_activity', [
      s.id(),
      s.int('bug_id'),
      s.int('attachment_id', { nullable: true }),
      s.int('comment_id', { nullable: true }),
      s.int('user_id'),
      s.datetime('changed_at'),
      s.str('field_name', 64),
      s.text('removed'),
      s.text('added'),
    ], [{ columns: ['bug_id', 'changed_at'] }, { columns: ['user_id'] }, { columns: ['changed_at'] }, { columns: ['field_name'] }]);

    await s.createTable('audit_log', [
      s.id(),
      s.int('user_id', { nullable: true }),
      s.str('class', 255),
      s.int('object_id'),
      s.str('field', 64),
      s.text('removed', { nullable: true }),
      s.text('added', { nullable: true }),
      s.datetime('at_time'),
    ], [{ columns: ['at_time'] }, { columns: ['class', 'at_time'] }]);

    // ---- Comments
    // type: 0 normal, 1 "has duplicate" (on the target), 2 "duplicate of" (on the duplicate), 5 attachment created,
    // 6 attachment updated (Bugzilla's CMT_* numbers); extra_data holds the other bug or the attachment id.
    await s.createTable('comments', [
      s.id(),
      s.int('bug_id'),
      s.int('user_id'),
      s.datetime('creation_time'),
      s.text('text'),
      s.hours('work_time'),
      s.bool('is_private', false),
      s.int('type', { default: 0 }),
      s.str('extra_data', 255, { nullable: true }),
      s.int('attachment_id', { nullable: true }),
    ], [{ columns: ['bug_id', 'creation_time'] }, { columns: ['user_id'] }, { columns: ['creation_time'] }]);

    await s.createTable('comment_tags', [s.id(), s.int('comment_id'), s.str('tag', 24)],
      [{ columns: ['comment_id', 'tag'], unique: true }, { columns: ['tag'] }]);
    await s.createTable('comment_tag_weights', [s.str('tag', 24, { primary: true }), s.int('weight', { default: 0 })]);

    // ---- Attachments (the data lives in its own table so listing attachments never reads blobs)
    await s.createTable('attachments', [
      s.id(),
      s.int('bug_id'),
      s.datetime('creation_time'),
      s.datetime('last_change_time'),
      s.str('summary', 255),
      s.str('content_type', 255),
      s.bool('is_patch', false),
      s.str('file_name', 255),
      s.int('creator_id'),
      s.bool('is_obsolete', false),
      s.bool('is_private', false),
      s.int('size', { default: 0 }),
    ], [{ columns: ['bug_id'] }, { columns: ['creator_id'] }, { columns: ['last_change_time'] }]);
    await s.createTable('attachment_data', [s.int('attachment_id', { primary: true }), s.blob('data')]);

    // ---- Flag types and flags
    await s.createTable('flag_types', [
      s.id(),
      s.str('name', 50),
      s.text('description'),
      s.str('cc_list', 200, { default: '' }),
      s.str('target_type', 16, { default: 'bug' }),
      s.bool('is_active', true),
      s.bool('is_requestable', true),
      s.bool('is_requesteeble', true),
      s.bool('is_multiplicable', true),
      s.int('sortkey', { default: 0 }),
      s.int('grant_group_id', { nullable: true }),
      s.int('request_group_id', { nullable: true }),
    ], [{ columns: ['name'] }]);
    // product_id/component_id NULL mean "any".
    await s.createTable('flag_inclusions', [s.id(), s.int('type_id'), s.int('product_id', { nullable: true }), s.int('component_id', { nullable: true })],
      [{ columns: ['type_id'] }, { columns: ['product_id'] }]);
    await s.createTable('flag_exclusions', [s.id(), s.int('type_id'), s.int('product_id', { nullable: true }), s.int('component_id', { nullable: true })],
      [{ columns: ['type_id'] }, { columns: ['product_id'] }]);
    await s.createTable('flags', [
      s.id(),
      s.int('type_id'),
      s.str('status', 1),
      s.int('bug_id'),
      s.int('attachment_id', { nullable: true }),
      s.datetime('creation_date'),
      s.datetime('modification_date'),
      s.int('setter_id'),
      s.int('requestee_id', { nullable: true }),
    ], [{ columns: ['bug_id'] }, { columns: ['attachment_id'] }, { columns: ['type_id'] }, { columns: ['setter_id'] }, { columns: ['requestee_id'] }]);

    // ---- Installation parameters and outgoing mail
    await s.createTable('parameters', [s.str('name', 64, { primary: true }), s.text('value')]);

    await s.createTable('mail_queue', [
      s.id(),
      s.datetime('created_at'),
      s.str('to_address', 255),
      s.str('subject', 255),
      s.text('body'),
      s.text('headers', { nullable: true }),
      s.int('attempts', { default: 0 }),
      s.datetime('next_attempt_at'),
      s.text('last_error', { nullable: true }),
      s.datetime('sent_at', { nullable: true }),
    ], [{ columns: ['sent_at', 'next_attempt_at'] }]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of [
      'mail_queue', 'parameters', 'flags', 'flag_exclusions', 'flag_inclusions', 'flag_types', 'attachment_data',
      'attachments', 'comment_tag_weights', 'comment_tags', 'comments', 'audit_log', 'bug_activity',
      'bug_user_last_visit', 'bug_tags', 'tags', 'bug_custom_values', 'bug_see_also', 'bug_groups', 'bug_duplicates',
      'bug_dependencies', 'bug_keywords', 'bug_cc', 'bug_aliases', 'bugs', 'status_workflow', 'field_values',
      'fielddefs', 'keywords', 'group_control_map', 'milestones', 'versions', 'component_cc', 'components', 'products',
      'classifications', 'saved_reports', 'saved_searches', 'login_failures', 'login_tokens', 'api_keys',
      'group_group_map', 'user_group_map', 'groups', 'users',
    ]) {
      await queryRunner.dropTable(table, true);
    }
  }
}
