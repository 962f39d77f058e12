import { ApiPropertyOptional } from '../../common/openapi/openapi-decorators.js';
import { IsArray, IsBoolean, IsOptional, IsString } from 'class-validator';
import { BooleanParam, LooseParam, ScalarParam, TextParam } from '../../common/http/dto.js';

/**
 * Create Comment (`POST /rest/bug/(id_or_alias)/comment`). Types only: presence (50), privacy (113), hours
 * (52/54/55) and length (114) are CommentCreateService's rules with Bugzilla's codes.
 */
export class CommentCreateInput {
  // Accepted so a Bugzilla client's body passes, never read: the path names the bug.
  @ApiPropertyOptional({ description: 'Ignored: the bug of the URL overrides it (as Create Attachment, the seed).' })
  @IsOptional() @IsString() @TextParam()
  id?: string;

  @ApiPropertyOptional({ description: 'The text (required: empty or whitespace-only is 50; over 65,535 characters is 114).' })
  @IsOptional() @IsString() @TextParam()
  comment?: string;

  @ApiPropertyOptional({ description: 'Private: seen only by the insider group (making one needs the insider group, 113).' })
  @IsOptional() @IsBoolean() @BooleanParam()
  is_private?: boolean;

  // A number or its text, checked as Update Bug checks hours (52, 54, 55); ignored outside the time-tracking group.
  @LooseParam({ type: Number, description: 'Hours worked, added to the bug\'s actual_time (time-tracking group only; ignored otherwise).' })
  work_time?: unknown;
}

/** Get Comments (`GET /rest/bug/(id_or_alias)/comment`, `GET /rest/bug/comment/(comment_id)`). */
export class CommentGetInput {
  @ApiPropertyOptional({ format: 'date-time', description: 'Only comments strictly newer than this, among those found through `ids` (56 for a bad date).' })
  @IsOptional() @IsString() @ScalarParam()
  new_since?: string;
}

/** Search Comment Tags (`GET /rest/bug/comment/tags/(query)`). */
export class CommentTagSearchInput {
  // Checked by the service: a natural number (52 otherwise); missing or 0 is the default, 10.
  @LooseParam({ type: 'integer', description: 'Most tags to return (default 10).' })
  limit?: unknown;
}

/** Update Comment Tags (`PUT /rest/bug/comment/(comment_id)/tags`). */
export class CommentTagUpdateInput {
  @ApiPropertyOptional({ type: [String], description: 'Tags to attach (3–24 characters of letters, digits, `.`, `_`, `-`).' })
  @IsOptional() @IsArray()
  add?: unknown[];

  @ApiPropertyOptional({ type: [String], description: 'Tags to detach.' })
  @IsOptional() @IsArray()
  remove?: unknown[];
}
