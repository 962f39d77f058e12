import { Module, type DynamicModule } from '@nestjs/common';
import { providingPorts } from '../common/modules/port.js';
import { BUG_COMMENTS } from '../bug/bug-comments.js';
import { BUG_COMMENT_SEARCH } from '../bug-search/bug-search-sources.js';
import { CommentSearchRepository } from './comment-search.repository.js';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CommentService } from './comment.service.js';
import { CommentRepository } from './comment.repository.js';
import { Comment } from './entities/comment.entity.js';
import { CommentTag } from './entities/comment-tag.entity.js';
import { CommentTagWeight } from './entities/comment-tag-weight.entity.js';
import { CommentController } from './comment.controller.js';
import { CommentViewService } from './comment-view.service.js';
import { CommentCreateService } from './comment-create.service.js';
import { CommentTagService } from './comment-tag.service.js';
import { CommentsAnswer } from './store/comment-get.answer.js';
import { BugModule } from '../bug/bug.module.js';
import { BugWriteModule } from '../bug-write/bug-write.module.js';
import { ProductModule } from '../product/product.module.js';
import { UserModule } from '../user/user.module.js';

@Module({
  imports: [TypeOrmModule.forFeature([Comment, CommentTag, CommentTagWeight]), BugModule, BugWriteModule, ProductModule, UserModule],
  controllers: [CommentController],
  providers: [CommentService, CommentRepository, CommentSearchRepository, CommentViewService, CommentCreateService, CommentTagService, CommentsAnswer],
  exports: [CommentService],
})
export class CommentModule {
  /**
   * The comment module as the composition root imports it: it provides the bug module's BUG_COMMENTS port (Create
   * and Update Bug write comments through it). Bug cannot import comment (comments hang on bugs), so that one
   * token, and nothing else of comment, is made visible app-wide,
   * with CommentViewService for the modules above (webhooks read as their owners).
   */
  static forBug(): DynamicModule {
    return providingPorts(CommentModule, [
      { token: BUG_COMMENTS, implementation: CommentService },
      // Search Bugs' comment criteria (longdesc, commenter, work_time): bug-search's port
      { token: BUG_COMMENT_SEARCH, implementation: CommentSearchRepository },
    ], [CommentViewService]);
  }
}
