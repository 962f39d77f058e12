import { Injectable } from '@nestjs/common';
import { In, LessThanOrEqual } from 'typeorm';
import { type Sql, type SqlValue, type ReadSql } from '../database/sql.js';
import { insertRowLater, insertRows, type NewRow } from '../database/entity-rows.js';
import type { IdToAsk } from '../bug/bug-events.js';
import { Comment } from './entities/comment.entity.js';
import { CommentTag } from './entities/comment-tag.entity.js';
import { CommentTagWeight } from './entities/comment-tag-weight.entity.js';

/** A comment's stored columns, as Create and Update Bug write them (a new bug's id may still be held: HeldRowId). */
export type NewCommentRow = NewRow<Omit<Comment, 'id' | 'author'>>;

/** A comment as Get Comments shows it: its columns and its per-bug number (the description is 0). */
export interface CommentRow {
  id: number;
  bugId: number;
  userId: number;
  creationTime: string;
  text: string;
  isPrivate: boolean;
  type: number;
  extraData: string | null;
  attachmentId: number | null;
  count: number;
}

interface RawCommentRow {
  id: number | string;
  bug_id: number | string;
  user_id: number | string;
  creation_time: string;
  text: string;
  is_private: number | string | boolean;
  type: number | string;
  extra_data: string | null;
  attachment_id: number | string | null;
  comment_count: number | string;
}

/** Which comments of the bugs to list; `count` always numbers all of a bug's comments, private ones included. */
export interface CommentFilter {
  /** Only comments created strictly after this time (DB format). */
  since?: string;
  /** Only these comment ids. */
  ids?: readonly number[];
  includePrivate: boolean;
}

/** Escape character of the LIKE patterns below: `%` and `_` in a searched tag are literal. */
const LIKE_ESCAPE = '!';

/** Comments and their tags. Every method takes the handle: db.read or a tx. */
@Injectable()
export class CommentRepository {
  /** Writes one comment and returns its id, in one statement (no re-select of defaulted columns). */
  insert(tx: Sql, comment: NewCommentRow): Promise<number> {
    return insertRows(tx.repository(Comment), [comment]);
  }

  /** Writes one comment whose id is asked for later, if at all (runWriteLater). */
  insertLater(tx: Sql, comment: NewCommentRow): Promise<IdToAsk> {
    return insertRowLater(tx.repository(Comment), comment);
  }

  /** Those of `ids` that are comments of the bug, with their privacy. */
  privacyOf(sql: Sql, bugId: number, ids: readonly number[]): Promise<Array<Pick<Comment, 'id' | 'isPrivate'>>> {
    if (!ids.length) return Promise.resolve([]);
    return sql.repository(Comment).find({ select: { id: true, isPrivate: true }, where: { bugId, id: In([...ids]) } });
  }

  async setPrivacy(tx: Sql, commentId: number, isPrivate: boolean): Promise<void> {
    await tx.repository(Comment).update({ id: commentId }, { isPrivate });
  }

  /** The bug and privacy of those of `ids` that exist. */
  owners(sql: ReadSql, ids: readonly number[]): Promise<Array<Pick<Comment, 'id' | 'bugId' | 'isPrivate'>>> {
    if (!ids.length) return Promise.resolve([]);
    return sql.repository(Comment).find({ select: { id: true, bugId: true, isPrivate: true }, where: { id: In([...ids]) } });
  }

  /**
   * The comments of the bugs, oldest first per bug, each with its number among all the bug's comments, in one
   * statement (Get Comments, a path bench/ measures). The number is a window over the whole bug, so it counts the
   * comments the filter leaves out, as Bugzilla numbers them before it skips private or older ones. The window runs
   * over ids alone (read from the bug_id + creation_time index), the order is the window's own columns, and the rows
   * join it by primary key: a window, or a sort, over whole rows made MariaDB copy every comment's text into an
   * on-disk temporary table (for 121 comments 1,385 µs of its time against ~360 now).
   */
  async ofBugs(sql: ReadSql, bugIds: readonly number[], filter: CommentFilter): Promise<CommentRow[]> {
    if (!bugIds.length) return [];
    const q = sql.quote;
    const params: SqlValue[] = [...bugIds];
    const where: string[] = [];
    if (filter.since !== undefined) {
      where.push(`${q('c.creation_time')} > ?`);
      params.push(filter.since);
    }
    if (filter.ids) {
      if (!filter.ids.length) return [];
      where.push(`${q('c.id')} IN ${sql.in(filter.ids)}`);
      params.push(...filter.ids);
    }
    if (!filter.includePrivate) where.push(`${q('c.is_private')} = 0`);
    const rows = await sql.all<RawCommentRow>(
      `SELECT ${q('c.id')}, ${q('c.bug_id')}, ${q('c.user_id')}, ${q('c.creation_time')}, ${q('c.text')}, ${q('c.is_private')},
              ${q('c.type')}, ${q('c.extra_data')}, ${q('c.attachment_id')}, ${q('n.comment_count')}
         FROM (SELECT ${q('id')}, ${q('bug_id')}, ROW_NUMBER() OVER (PARTITION BY ${q('bug_id')} ORDER BY ${q('creation_time')}, ${q('id')}) - 1 AS ${q('comment_count')}
                 FROM ${q('comments')} WHERE ${q('bug_id')} IN ${sql.in(bugIds)}) n
         JOIN ${q('comments')} c ON ${q('c.id')} = ${q('n.id')}
        ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
        ORDER BY ${q('n.bug_id')}, ${q('n.comment_count')}`,
      params,
    );
    return rows.map((r) => ({
      id: Number(r.id),
      bugId: Number(r.bug_id),
      userId: Number(r.user_id),
      creationTime: String(r.creation_time),
      text: r.text,
      isPrivate: Number(r.is_private) === 1,
      type: Number(r.type),
      extraData: r.extra_data,
      attachmentId: r.attachment_id == null ? null : Number(r.attachment_id),
      count: Number(r.comment_count),
    }));
  }

  // ---- Tags ---------------------------------------------------------------------------------------------------

  /** The tags of every comment of the bugs (comment id → tags, sorted), in one statement. */
  async tagsOfBugs(sql: ReadSql, bugIds: readonly number[]): Promise<Map<number, string[]>> {
    if (!bugIds.length) return new Map();
    const rows = await sql.repository(CommentTag).createQueryBuilder('t')
      .innerJoin('t.comment', 'c')
      .select(['t.commentId', 't.tag'])
      .where('c.bugId IN (:...bugIds)', { bugIds: [...bugIds] })
      .orderBy('t.tag')
      .getMany();
    return byComment(rows);
  }

  /** The tags of these comments (comment id → tags, sorted). */
  async tagsOf(sql: ReadSql, commentIds: readonly number[]): Promise<Map<number, string[]>> {
    if (!commentIds.length) return new Map();
    const rows = await sql.repository(CommentTag).find({ select: { commentId: true, tag: true }, where: { commentId: In([...commentIds]) }, order: { tag: 'ASC' } });
    return byComment(rows);
  }

  /** Tags in use containing `text` (case-insensitively), most used first. */
  async searchTags(sql: ReadSql, text: string, limit: number): Promise<string[]> {
    const pattern = `%${text.replace(/[!%_]/g, (c) => LIKE_ESCAPE + c)}%`;
    const rows = await sql.repository(CommentTagWeight).createQueryBuilder('w')
      .select(['w.tag'])
      .where('w.tag LIKE :pattern ESCAPE :escape', { pattern, escape: LIKE_ESCAPE })
      .orderBy('w.weight', 'DESC').addOrderBy('w.tag', 'ASC')
      .limit(limit)
      .getMany();
    return rows.map((r) => r.tag);
  }

  async addTags(tx: Sql, commentId: number, tags: readonly string[]): Promise<void> {
    await insertRows(tx.repository(CommentTag), tags.map((tag) => ({ commentId, tag })));
    for (const tag of tags) {
      const weights = tx.repository(CommentTagWeight);
      if (await weights.existsBy({ tag })) await weights.increment({ tag }, 'weight', 1);
      else await weights.insert({ tag, weight: 1 });
    }
  }

  /** Detaches the tags (as stored) and lowers their weights; a tag nobody uses any more leaves the search. */
  async removeTags(tx: Sql, commentId: number, tags: readonly string[]): Promise<void> {
    if (!tags.length) return;
    await tx.repository(CommentTag).delete({ commentId, tag: In([...tags]) });
    for (const tag of tags) {
      await tx.repository(CommentTagWeight).decrement({ tag }, 'weight', 1);
      await tx.repository(CommentTagWeight).delete({ tag, weight: LessThanOrEqual(0) });
    }
  }
}

function byComment(rows: ReadonlyArray<Pick<CommentTag, 'commentId' | 'tag'>>): Map<number, string[]> {
  const tags = new Map<number, string[]>();
  for (const row of rows) tags.set(row.commentId, [...(tags.get(row.commentId) ?? []), row.tag]);
  return tags;
}
