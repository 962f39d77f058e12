import { Module, type DynamicModule } from '@nestjs/common';
import { providingPorts } from '../common/modules/port.js';
import { UserModule } from '../user/user.module.js';
import { GroupModule } from '../group/group.module.js';
import { FieldModule } from '../field/field.module.js';
import { BUG_MAILER } from '../bug/bug-events.js';
import { BugMailService } from './bug-mail.service.js';
import { MailQueueService } from './mail-queue.service.js';
import { MailRepository } from './mail.repository.js';
import { MailService } from './mail.service.js';
import { MailDeliveryService } from './mail-delivery.service.js';

/**
 * Outgoing mail: the outbox (mail_queue) written inside each change's transaction, and the delivery worker.
 * Mail sits above the bug module and implements its port (BUG_MAILER, src/bug/bug-events.ts).
 */
@Module({
  imports: [UserModule, GroupModule, FieldModule],
  providers: [BugMailService, MailQueueService, MailRepository, MailService, MailDeliveryService],
  exports: [MailService],
})
export class MailModule {
  /**
   * The mail module as the composition root imports it: it provides the bug module's BUG_MAILER port. Bug cannot
   * import mail (mail is above it), so that one token is made visible app-wide, with MailService for the modules
   * above mail (webhooks mail an owner), which read it from this one instance of the module.
   */
  static forBug(): DynamicModule {
    return providingPorts(MailModule, [{ token: BUG_MAILER, implementation: BugMailService }], [MailService]);
  }
}
