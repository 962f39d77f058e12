import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditLogEntry } from './entities/audit-log-entry.entity.js';
import { ChangeMark } from './entities/change-mark.entity.js';
import { AuditRepository } from './audit.repository.js';
import { AuditService } from './audit.service.js';
import { SettingsMarkRepository } from './store/settings-mark.repository.js';
import { SettingsMarkService } from './store/settings-mark.service.js';
import { ChangeMarkSubscriber } from './change-mark.subscriber.js';

@Global()
@Module({ imports: [TypeOrmModule.forFeature([AuditLogEntry, ChangeMark])], providers: [AuditRepository, AuditService, SettingsMarkRepository, SettingsMarkService, ChangeMarkSubscriber], exports: [AuditService, SettingsMarkService] })
export class AuditModule {}
