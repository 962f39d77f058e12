import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Group } from './entities/group.entity.js';
import { GroupGrant } from './entities/group-grant.entity.js';
import { Membership } from './entities/membership.entity.js';
import { GroupRepository } from './group.repository.js';
import { GroupService } from './group.service.js';
import { GroupEditorService } from './group-editor.service.js';
import { GroupReaderService } from './group-reader.service.js';
import { GroupController } from './group.controller.js';

@Module({
  imports: [TypeOrmModule.forFeature([Group, GroupGrant, Membership])],
  controllers: [GroupController],
  providers: [GroupRepository, GroupService, GroupEditorService, GroupReaderService],
  exports: [GroupService],
})
export class GroupModule {}
