import { Module } from '@nestjs/common';
import { InfoController } from './info.controller.js';
import { InfoService } from './info.service.js';
import { VersionAnswer } from './store/version.answer.js';
import { GroupModule } from '../group/group.module.js';

@Module({ imports: [GroupModule], controllers: [InfoController], providers: [InfoService, VersionAnswer] })
export class InfoModule {}
