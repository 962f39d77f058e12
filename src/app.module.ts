import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { AppConfig } from './config/app-config.js';
import { ConfigModule } from './config/config.module.js';
import { DatabaseModule } from './database/database.module.js';
import { ParamsModule } from './params/params.module.js';
import { AuditModule } from './audit/audit.module.js';
import { AccessGuard } from './common/guards/access.guard.js';
import { FieldSelectionInterceptor } from './common/fields/field-selection.interceptor.js';
import { TrackerExceptionFilter } from './common/http/exception.filter.js';
import { ClockModule, type Clock } from './common/time/clock.js';
import { AuthModule } from './auth/auth.module.js';
import { UserModule } from './user/user.module.js';
import { GroupModule } from './group/group.module.js';
import { InfoModule } from './info/info.module.js';
import { ProductModule } from './product/product.module.js';
import { FieldModule } from './field/field.module.js';
import { FlagModule } from './flag/flag.module.js';
import { FlagTypeApiModule } from './flag/flag-type-api.module.js';
import { MailModule } from './mail/mail.module.js';
import { BugModule } from './bug/bug.module.js';
import { CommentModule } from './comment/comment.module.js';
import { AttachmentModule } from './attachment/attachment.module.js';
import { BugSearchModule } from './bug-search/bug-search.module.js';
import { BugWriteModule } from './bug-write/bug-write.module.js';
import { LastVisitModule } from './bug/last-visit/last-visit.module.js';
import { CatalogueUsageModule } from './bug/catalogue-usage.module.js';
import { ENTITIES } from './entities.js';
import { InstallModule } from './install/install.module.js';
import { HealthModule } from './health/health.module.js';
import { MetricsModule } from './metrics/metrics.module.js';
import { RateLimitModule } from './ratelimit/rate-limit.module.js';
import { WebhookModule } from './webhook/webhook.module.js';
import { RpcModule } from './rpc/rpc.module.js';
import { ChangeFeedModule } from './change-feed/change-feed.module.js';

/**
 * The resource modules; a new resource is one more entry here. Their order is the order of the routes in the OpenAPI
 * document (BugSearchModule before BugModule: `/rest/bug` comes before `/rest/bug/{id_or_alias}`).
 */
export const RESOURCE_MODULES = [AuthModule, UserModule, GroupModule, InfoModule, ProductModule, FieldModule, FlagModule, FlagModule.forProduct(), FlagTypeApiModule, BugSearchModule, BugModule, BugWriteModule, LastVisitModule, CommentModule.forBug(), AttachmentModule.forBug(), CatalogueUsageModule.forCatalogue(), MailModule.forBug(), WebhookModule.forBug(), ChangeFeedModule.forBug(), HealthModule];

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, clock?: Clock): DynamicModule {
    return {
      module: AppModule,
      imports: [ConfigModule.forRoot(config), ClockModule.forRoot(clock), DatabaseModule.forRoot(ENTITIES), RateLimitModule, InstallModule, ParamsModule, AuditModule, ...RESOURCE_MODULES, RpcModule.forRoot(config), ...(config.metrics ? [MetricsModule] : [])],
      providers: [
        { provide: APP_GUARD, useClass: AccessGuard },
        { provide: APP_INTERCEPTOR, useClass: FieldSelectionInterceptor },
        { provide: APP_FILTER, useClass: TrackerExceptionFilter },
      ],
    };
  }
}
