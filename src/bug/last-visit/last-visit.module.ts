import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BugModule } from '../bug.module.js';
import { BugLastVisit } from '../entities/bug-last-visit.entity.js';
import { LastVisitController } from './last-visit.controller.js';
import { LastVisitService } from './last-visit.service.js';
import { LastVisitRepository } from './last-visit.repository.js';

/** The last-visit routes (BugUserLastVisit), on top of BugModule's visibility rule and loader. */
@Module({
  imports: [TypeOrmModule.forFeature([BugLastVisit]), BugModule],
  controllers: [LastVisitController],
  providers: [LastVisitService, LastVisitRepository],
})
export class LastVisitModule {}
