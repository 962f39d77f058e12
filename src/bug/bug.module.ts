import { Module } from '@nestjs/common';
import { BugVisibilityService } from './bug-visibility.service.js';
import { ChangeRecorderService } from './change-recorder.service.js';
import { BugLoaderService } from './bug-loader.service.js';
import { CommentModule } from '../comment/comment.module.js';

/**
 * Bugs: create, get, history (and update, added by its own providers), with the shared pieces every module that
 * shows or changes bugs uses: the visibility rule, the page loader and the change recorder.
 */
@Module({
  imports: [CommentModule],
  providers: [BugVisibilityService, ChangeRecorderService, BugLoaderService],
  exports: [BugVisibilityService, ChangeRecorderService, BugLoaderService, CommentModule],
})
export class BugModule {}
