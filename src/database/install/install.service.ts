import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../../config/app-config.js';
import { Db } from '../db.service.js';
import type { Sql } from '../sql.js';
import { digestSecret, hashPassword, randomSecret } from '../../auth/credentials.js';
import { toDbDateTime } from '../../common/time/datetime.js';
import { PARAMETER_DEFINITIONS, SITE_SECRET_PARAMETER } from '../../params/parameter-definitions.js';
import { SELECT_FIELD_VALUES, STANDARD_FIELDS, STATUSES, SYSTEM_GROUPS, SYSTEM_GROUP_INHERITANCE, WORKFLOW } from './install-data.js';

/** Group-to-group grant types (group_group_map.grant_type). */
const MEMBERSHIP = 0;
const BLESS = 1;
const VISIBILITY = 2;

/**
 * Fills an empty database with the install data, once: a database that already has groups is left alone, so
 * running it again (every start) changes nothing.
 */
@Injectable()
export class InstallService {
  private readonly logger = new Logger('Install');

  constructor(private readonly db: Db, private readonly config: AppConfig) {}

  async installIfEmpty(): Promise<boolean> {
    const installed = await this.db.read.one('SELECT id FROM groups WHERE id = 1');
    if (installed) return false;
    const password = this.config.adminPassword ?? randomSecret(16);
    const cryptpassword = await hashPassword(password);
    await this.db.transaction((tx) => this.install(tx, cryptpassword));
    if (!this.config.adminPassword) {
      // Printed once, on the first start: there is no other way to learn it.
      process.stdout.write(`\nTracker installed. Administrator: ${this.config.adminEmail}  password: ${password}\n\n`);
    }
    this.logger.log(`Installed a fresh database; administrator is ${this.config.adminEmail}`);
    return true;
  }

  private async install(tx: Sql, cryptpassword: string): Promise<void> {
    const now = toDbDateTime(new Date());

    const groupIds = new Map<string, number>();
    for (const group of SYSTEM_GROUPS) {
      const id = await tx.insert('groups', {
        name: group.name, description: group.description, is_bug_group: 0, user_regexp: group.userRegexp ?? '', is_active: 1,
      });
      groupIds.set(group.name, id);
    }
    const adminGroup = groupIds.get('admin')!;
    const grants: Array<Record<string, number>> = [];
    for (const id of groupIds.values()) {
      if (id === adminGroup) continue;
      // Every group makes admin a member, a blesser and a viewer of itself (defaults.md).
      for (const grantType of [MEMBERSHIP, BLESS, VISIBILITY]) grants.push({ member_id: adminGroup, grantor_id: id, grant_type: grantType });
    }
    for (const [member, grantor] of SYSTEM_GROUP_INHERITANCE) {
      grants.push({ member_id: groupIds.get(member)!, grantor_id: groupIds.get(grantor)!, grant_type: MEMBERSHIP });
    }
    await tx.insertMany('group_group_map', grants);

    const adminId = await tx.insert('users', {
      login_name: this.config.adminEmail, email: this.config.adminEmail, realname: 'Administrator', cryptpassword,
      login_denied_text: '', email_enabled: 1, creation_ts: now,
    });
    await tx.insertMany('user_group_map', [
      { user_id: adminId, group_id: adminGroup, is_bless: 0, grant_type: 0 },
      { user_id: adminId, group_id: adminGroup, is_bless: 1, grant_type: 0 },
      { user_id: adminId, group_id: groupIds.get('editusers')!, is_bless: 0, grant_type: 0 },
      // editbugs matches every login (user_regexp '.*'): a regexp membership, as for every later account.
      { user_id: adminId, group_id: groupIds.get('editbugs')!, is_bless: 0, grant_type: 2 },
    ]);
    if (this.config.adminApiKey) {
      await tx.insert('api_keys', {
        user_id: adminId, key_hash: digestSecret(this.config.adminApiKey), description: 'TRACKER_ADMIN_API_KEY', revoked: 0, creation_ts: now,
      });
    }

    const fieldIds = new Map<string, number>();
    for (const [index, field] of STANDARD_FIELDS.entries()) {
      const id = await tx.insert('fielddefs', {
        name: field.name, description: field.description, type: field.type ?? 0, custom: 0, obsolete: 0,
        mailhead: field.mailhead ? 1 : 0, sortkey: (index + 1) * 50, enter_bug: field.enterBug ? 1 : 0,
        buglist: field.buglist ? 1 : 0, is_mandatory: field.mandatory ? 1 : 0, is_numeric: field.numeric ? 1 : 0,
      });
      fieldIds.set(field.name, id);
    }
    const statusIds = new Map<string, number>();
    for (const [index, status] of STATUSES.entries()) {
      const id = await tx.insert('field_values', {
        field_id: fieldIds.get('bug_status')!, value: status.value, sortkey: (index + 1) * 100, is_active: 1, is_open: status.isOpen ? 1 : 0,
      });
      statusIds.set(status.value, id);
    }
    for (const [field, values] of Object.entries(SELECT_FIELD_VALUES)) {
      await tx.insertMany('field_values', values.map((value, index) => ({
        field_id: fieldIds.get(field)!, value, sortkey: (index + 1) * 100, is_active: 1,
      })));
    }
    await tx.insertMany('status_workflow', WORKFLOW.map(([from, to]) => ({
      from_status_id: from === null ? null : statusIds.get(from)!, to_status_id: statusIds.get(to)!, require_comment: 0,
    })));

    await tx.insert('classifications', { name: 'Unclassified', description: 'Not assigned to any classification', sortkey: 0 });
    const productId = await tx.insert('products', {
      name: 'TestProduct', classification_id: 1, description: 'This is a test product. This ought to be blown away and replaced with real stuff in a finished installation of Tracker.',
      is_active: 1, default_milestone: '---', has_unconfirmed: 1,
    });
    await tx.insert('components', {
      name: 'TestComponent', product_id: productId, default_assignee_id: adminId, default_qa_contact_id: null,
      description: 'This is a test component in the test product database. This ought to be blown away and replaced with real stuff in a finished installation of Tracker.',
      is_active: 1, sortkey: 0,
    });
    await tx.insert('versions', { value: 'unspecified', product_id: productId, is_active: 1, sortkey: 0 });
    await tx.insert('milestones', { value: '---', product_id: productId, is_active: 1, sortkey: 0 });

    const parameterValues: Record<string, string> = {
      ...Object.fromEntries(PARAMETER_DEFINITIONS.map((d) => [d.name, d.default])),
      maintainer: this.config.adminEmail,
      urlbase: this.config.urlbase,
      [SITE_SECRET_PARAMETER]: randomSecret(48),
    };
    await tx.insertMany('parameters', Object.entries(parameterValues).map(([name, value]) => ({ name, value })));
  }
}
