import { Entity, Index } from 'typeorm';
import { BoolColumn, DateTimeColumn, IdColumn, LongTextColumn, StringColumn } from '../../database/columns.js';
import { SettingsTable } from '../../database/activity-table.js';

@Entity('users')
@SettingsTable()
@Index('uq_users_login_name', ['loginName'], { unique: true })
@Index('ix_users_realname', ['realname'])
export class User {
  @IdColumn()
  id: number;

  @StringColumn(255)
  loginName: string;

  @StringColumn(255)
  email: string;

  @StringColumn(255, { default: '' })
  realname: string;

  @StringColumn(255, { nullable: true })
  cryptpassword: string | null;

  @LongTextColumn()
  loginDeniedText: string;

  @BoolColumn(true)
  emailEnabled: boolean;

  @DateTimeColumn()
  creationTs: string;

  @DateTimeColumn({ nullable: true })
  lastSeenDate: string | null;
}
