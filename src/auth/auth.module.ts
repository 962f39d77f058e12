import { Module } from '@nestjs/common';
import { CALLER_RESOLVER } from '../common/guards/caller-resolver.js';
import { UserModule } from '../user/user.module.js';
import { GroupModule } from '../group/group.module.js';
import { CallerResolverService } from './caller-resolver.service.js';

@Module({
  imports: [UserModule, GroupModule],
  providers: [CallerResolverService, { provide: CALLER_RESOLVER, useExisting: CallerResolverService }],
  exports: [CALLER_RESOLVER, CallerResolverService],
})
export class AuthModule {}
