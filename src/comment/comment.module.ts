import { Module } from '@nestjs/common';
import { CommentService } from './comment.service.js';

@Module({ providers: [CommentService], exports: [CommentService] })
export class CommentModule {}
