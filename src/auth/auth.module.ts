import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CALLER_RESOLVER } from '../common/guards/caller-resolver.js';
import { UserModule } from '../user/user.module.js';
import { GroupModule } from '../group/group.module.js';
import { CallerResolverService } from './store/caller-resolver.service.js';
import { LoginFailuresService } from './login-failures.service.js';
import { AuthService } from './auth.service.js';
import { AuthController } from './auth.controller.js';
import { ApiKeyController } from './api-key.controller.js';
import { AuthRepository } from './auth.repository.js';
import { CredentialCheckRepository } from './store/credential-check.repository.js';
import { ApiKey } from './entities/api-key.entity.js';
import { LoginToken } from './entities/login-token.entity.js';
import { LoginFailure } from './entities/login-failure.entity.js';

@Module({
  imports: [UserModule, GroupModule, TypeOrmModule.forFeature([ApiKey, LoginToken, LoginFailure])],
  controllers: [AuthController, ApiKeyController],
  providers: [AuthRepository, CredentialCheckRepository, CallerResolverService, LoginFailuresService, AuthService, { provide: CALLER_RESOLVER, useExisting: CallerResolverService }],
  exports: [CALLER_RESOLVER, CallerResolverService, AuthService],
})
export class AuthModule {}
