import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { insertRows, type Sql } from '../database/sql.js';
import { Comment } from './entities/comment.entity.js';

/** A comment's stored columns, as Create and Update Bug write them. */
export type NewCommentRow = Omit<Comment, 'id' | 'author'>;

/** Comments (and their tags, once the comment endpoints come). Every method takes the handle: db.read or a tx. */
@Injectable()
export class CommentRepository {
  /** Writes one comment and returns its id, in one statement (no re-select of defaulted columns). */
  insert(tx: Sql, comment: NewCommentRow): Promise<number> {
    return insertRows(tx.repository(Comment), [comment]);
  }

  /** Those of `ids` that are comments of the bug, with their privacy. */
  privacyOf(sql: Sql, bugId: number, ids: readonly number[]): Promise<Array<Pick<Comment, 'id' | 'isPrivate'>>> {
    if (!ids.length) return Promise.resolve([]);
    return sql.repository(Comment).find({ select: { id: true, isPrivate: true }, where: { bugId, id: In([...ids]) } });
  }

  async setPrivacy(tx: Sql, commentId: number, isPrivate: boolean): Promise<void> {
    await tx.repository(Comment).update({ id: commentId }, { isPrivate });
  }
}
