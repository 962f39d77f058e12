import { Module } from '@nestjs/common';
import { GroupService } from './group.service.js';
import { GroupEditorService } from './group-editor.service.js';
import { GroupReaderService } from './group-reader.service.js';
import { GroupController } from './group.controller.js';

@Module({
  controllers: [GroupController],
  providers: [GroupService, GroupEditorService, GroupReaderService],
  exports: [GroupService],
})
export class GroupModule {}
