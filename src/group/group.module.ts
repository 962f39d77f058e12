import { Module } from '@nestjs/common';
import { GroupService } from './group.service.js';

@Module({ providers: [GroupService], exports: [GroupService] })
export class GroupModule {}
