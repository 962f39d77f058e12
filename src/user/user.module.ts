import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { GroupModule } from '../group/group.module.js';
import { User } from './entities/user.entity.js';
import { SavedSearch } from './entities/saved-search.entity.js';
import { SavedReport } from './entities/saved-report.entity.js';
import { UserRepository } from './user.repository.js';
import { UserService } from './user.service.js';
import { UserReaderService } from './user-reader.service.js';
import { UserEditorService } from './user-editor.service.js';
import { UserController } from './user.controller.js';

@Module({
  imports: [GroupModule, TypeOrmModule.forFeature([User, SavedSearch, SavedReport])],
  controllers: [UserController],
  providers: [UserRepository, UserService, UserReaderService, UserEditorService],
  exports: [UserService, UserReaderService],
})
export class UserModule {}
