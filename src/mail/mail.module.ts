import { Global, Module } from '@nestjs/common';
import { UserModule } from '../user/user.module.js';
import { GroupModule } from '../group/group.module.js';
import { BUG_MAILER } from './bug-mail.types.js';
import { BugMailService } from './bug-mail.service.js';
import { MailQueueService } from './mail-queue.service.js';
import { MailKicker } from './mail-kicker.js';
import { MailDeliveryService } from './mail-delivery.service.js';
import { FieldModule } from '../field/field.module.js';

/**
 * Outgoing mail: the outbox (mail_queue) written inside each change's transaction, and the delivery worker.
 * Global so that the bug module injects BUG_MAILER without importing this module (mail sits beside, not below, it).
 */
@Global()
@Module({
  imports: [UserModule, GroupModule, FieldModule],
  providers: [BugMailService, MailQueueService, MailKicker, MailDeliveryService, { provide: BUG_MAILER, useExisting: BugMailService }],
  exports: [BUG_MAILER, BugMailService, MailQueueService],
})
export class MailModule {}
