import { Module } from '@nestjs/common';
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
export class CommentModule {}
