import { Module, type DynamicModule } from '@nestjs/common';
import { providingPorts } from '../common/modules/port.js';
import { BUG_COMMENTS } from '../bug/bug-comments.js';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CommentService } from './comment.service.js';
import { CommentRepository } from './comment.repository.js';
import { Comment } from './entities/comment.entity.js';
import { CommentTag } from './entities/comment-tag.entity.js';
import { CommentTagWeight } from './entities/comment-tag-weight.entity.js';

@Module({
  imports: [TypeOrmModule.forFeature([Comment, CommentTag, CommentTagWeight])],
  providers: [CommentService, CommentRepository],
  exports: [CommentService],
})
export class CommentModule {
  /**
   * The comment module as the composition root imports it: it provides the bug module's BUG_COMMENTS port (Create
   * and Update Bug write comments through it). Bug cannot import comment (comments hang on bugs), so that one
   * token, and nothing else of comment, is made visible app-wide.
   */
  static forBug(): DynamicModule {
    return providingPorts(CommentModule, [{ token: BUG_COMMENTS, implementation: CommentService }]);
  }
}
