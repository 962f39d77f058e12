import { Module } from '@nestjs/common';
import { CALLER_RESOLVER } from '../common/guards/caller-resolver.js';
import { UserModule } from '../user/user.module.js';
import { GroupModule } from '../group/group.module.js';
import { CallerResolverService } from './caller-resolver.service.js';
import { LoginFailuresService } from './login-failures.service.js';
import { AuthService } from './auth.service.js';
import { AuthController } from './auth.controller.js';
import { ApiKeyController } from './api-key.controller.js';

@Module({
  imports: [UserModule, GroupModule],
  controllers: [AuthController, ApiKeyController],
  providers: [CallerResolverService, LoginFailuresService, AuthService, { provide: CALLER_RESOLVER, useExisting: CallerResolverService }],
  exports: [CALLER_RESOLVER, CallerResolverService, AuthService],
})
export class AuthModule {}
