import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { Db } from '../database/db.service.js';
import type { Sql } from '../database/sql.js';
import { hashPassword, randomSecret } from '../common/credentials.js';
import { toDbDateTime } from '../common/time/datetime.js';
import { GroupService, UserGrant } from '../group/group.service.js';
import { UserService } from '../user/user.service.js';
import { AuthService } from '../auth/auth.service.js';
import { FieldService } from '../field/field.service.js';
import { ProductService } from '../product/product.service.js';
import { ParametersService } from '../params/parameters.service.js';
import { SELECT_FIELD_VALUES, STANDARD_FIELDS, STATUSES, SYSTEM_GROUPS, SYSTEM_GROUP_INHERITANCE, TEST_PRODUCT, WORKFLOW } from './install-data.js';

/** The first system group (install-data.ts): once it exists, the database is installed. */
const ADMIN_GROUP_ID = 1;

/**
 * Fills an empty database with the install data, once, in one transaction, at every start (the service's and the
 * admin command line's): a database that already has its first group is left alone. Each module writes its own
 * rows; this only decides the order and hands each module its part of the data.
 */
@Injectable()
export class InstallService implements OnModuleInit {
  private readonly logger = new Logger('Install');

  constructor(
    private readonly db: Db,
    private readonly config: AppConfig,
    private readonly groups: GroupService,
    private readonly users: UserService,
    private readonly auth: AuthService,
    private readonly fields: FieldService,
    private readonly products: ProductService,
    private readonly parameters: ParametersService,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.installIfEmpty();
  }

  async installIfEmpty(): Promise<boolean> {
    if (await this.groups.existsById(ADMIN_GROUP_ID)) return false;
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
    const at = toDbDateTime(new Date());
    const groupIds = await this.groups.installSystemGroups(tx, SYSTEM_GROUPS, SYSTEM_GROUP_INHERITANCE);
    const adminId = await this.users.installAdministrator(tx, { login: this.config.adminEmail, realName: 'Administrator', cryptpassword, at });
    const admin = groupIds.get('admin')!;
    await this.groups.installMemberships(tx, adminId, [
      { groupId: admin, isBless: 0, grantType: UserGrant.DIRECT },
      { groupId: admin, isBless: 1, grantType: UserGrant.DIRECT },
      { groupId: groupIds.get('editusers')!, isBless: 0, grantType: UserGrant.DIRECT },
      // editbugs matches every login (user_regexp '.*'): a regexp membership, as for every later account.
      { groupId: groupIds.get('editbugs')!, isBless: 0, grantType: UserGrant.REGEXP },
    ]);
    if (this.config.adminApiKey) {
      await this.auth.installApiKey(tx, { userId: adminId, apiKey: this.config.adminApiKey, description: 'TRACKER_ADMIN_API_KEY', at });
    }
    await this.fields.installFields(tx, { fields: STANDARD_FIELDS, statuses: STATUSES, selectValues: SELECT_FIELD_VALUES, workflow: WORKFLOW });
    await this.products.installTestProduct(tx, TEST_PRODUCT, adminId);
    await this.parameters.installDefaults(tx, { maintainer: this.config.adminEmail, urlbase: this.config.urlbase });
  }
}
