import { Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { providingPorts } from '../common/modules/port.js';
import { BUG_WEBHOOKS } from '../bug/bug-events.js';
import { AuthModule } from '../auth/auth.module.js';
import { BugModule } from '../bug/bug.module.js';
import { ParamsModule } from '../params/params.module.js';
import { ProductModule } from '../product/product.module.js';
import { UserModule } from '../user/user.module.js';
import { Webhook } from './entities/webhook.entity.js';
import { WebhookDelivery } from './entities/webhook-delivery.entity.js';
import { WebhookState } from './entities/webhook-state.entity.js';
import { WebhookController } from './webhook.controller.js';
import { WebhookDeliveryService } from './webhook-delivery.service.js';
import { WebhookPayloadService } from './webhook-payload.service.js';
import { WebhookRepository } from './webhook.repository.js';
import { WebhookService } from './webhook.service.js';

/**
 * Webhooks (beyond Bugzilla 5.0): management over REST, an outbox written in each bug change's transaction, and
 * the delivery worker. Above mail (a disabled webhook's owner is mailed): it reads comments, attachments and mail
 * through the services those modules share upward (CommentModule.forBug() …), never a second instance of them.
 */
@Module({
  imports: [TypeOrmModule.forFeature([Webhook, WebhookState, WebhookDelivery]), AuthModule, BugModule, ParamsModule, ProductModule, UserModule],
  controllers: [WebhookController],
  providers: [WebhookService, WebhookRepository, WebhookPayloadService, WebhookDeliveryService],
})
export class WebhookModule {
  /** As the composition root imports it: it provides the bug module's BUG_WEBHOOKS port (bug changes queue deliveries). */
  static forBug(): DynamicModule {
    return providingPorts(WebhookModule, [{ token: BUG_WEBHOOKS, implementation: WebhookService }]);
  }
}
