import { Module } from '@nestjs/common';
import { GroupModule } from '../group/group.module.js';
import { UserService } from './user.service.js';
import { UserReaderService } from './user-reader.service.js';
import { UserEditorService } from './user-editor.service.js';
import { UserController } from './user.controller.js';

@Module({
  imports: [GroupModule],
  controllers: [UserController],
  providers: [UserService, UserReaderService, UserEditorService],
  exports: [UserService, UserReaderService],
})
export class UserModule {}
