import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditLogEntry } from './entities/audit-log-entry.entity.js';
import { ChangeMark } from './entities/change-mark.entity.js';
import { AuditRepository } from './audit.repository.js';
import { AuditService } from './audit.service.js';
import { ChangeMarkSubscriber } from './change-mark.subscriber.js';

@Global()
@Module({ imports: [TypeOrmModule.forFeature([AuditLogEntry, ChangeMark])], providers: [AuditRepository, AuditService, ChangeMarkSubscriber], exports: [AuditService] })
export class AuditModule {}
