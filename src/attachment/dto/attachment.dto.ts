import { ApiPropertyOptional } from '../../common/openapi/openapi-decorators.js';
import { IsArray, IsBoolean, IsOptional, IsString } from 'class-validator';
import { BooleanParam, LooseParam, TextParam } from '../../common/http/dto.js';
import { FlagChangeDoc, NewFlagDoc } from '../../bug-rules/dto/flag-change.doc.js';

/**
 * The values Create and Update Attachment share. Types only: presence, lengths, the MIME type and the flags are
 * AttachmentService's rules with Bugzilla's codes (50, 600–606, 129–134).
 */
class AttachmentValues {
  @ApiPropertyOptional({ description: 'File name (required on create, 603 when empty); a path is cut to its last part.' })
  @IsOptional() @IsString() @TextParam()
  file_name?: string;

  @ApiPropertyOptional({ description: 'Short description (required, 604 when empty).' })
  @IsOptional() @IsString() @TextParam()
  summary?: string;

  @ApiPropertyOptional({ description: 'MIME type, `type/subtype` with a legal top-level type (601); required on create unless is_patch.' })
  @IsOptional() @IsString() @TextParam()
  content_type?: string;

  @ApiPropertyOptional({ description: 'Comment added to the bug with the attachment (its privacy follows the attachment).' })
  @IsOptional() @IsString() @TextParam()
  comment?: string;

  @ApiPropertyOptional({ description: 'A patch: its content type becomes text/plain.' })
  @IsOptional() @IsBoolean() @BooleanParam()
  is_patch?: boolean;

  @ApiPropertyOptional({ description: 'Private: seen only by the insider group and its creator (setting it needs the insider group, 113).' })
  @IsOptional() @IsBoolean() @BooleanParam()
  is_private?: boolean;
}

/** Create Attachment input (POST /rest/bug/(bug_id)/attachment); the path's bug overrides `ids`. */
export class AttachmentCreateInput extends AttachmentValues {
  // Accepted so a Bugzilla client's body passes, never read: the path names the bug.
  @LooseParam({ type: [String], description: 'Ignored: the bug of the URL overrides it (Bugzilla 5.0 REST).' })
  ids?: unknown;

  // A string of base64, checked by the service (50 when missing, 606 when empty, 600 too large).
  @LooseParam({ type: String, format: 'byte', description: 'The contents, base64-encoded (required).' })
  data?: unknown;

  @ApiPropertyOptional({ type: [NewFlagDoc], description: 'Flags to set (name or type_id, status, requestee).' })
  @IsOptional() @IsArray()
  flags?: unknown[];
}

/** Update Attachment input (PUT /rest/bug/attachment/(id)); the path's attachment joins `ids`. */
export class AttachmentUpdateInput extends AttachmentValues {
  // Read with the path's attachment by RequestParams.listWithPath; documented here.
  @LooseParam({ type: [Number], description: 'More attachments to update the same way (all or nothing).' })
  ids?: unknown;

  @ApiPropertyOptional({ description: 'Obsolete: replaced by a newer attachment.' })
  @IsOptional() @IsBoolean() @BooleanParam()
  is_obsolete?: boolean;

  @ApiPropertyOptional({ type: [FlagChangeDoc], description: 'Flag changes (status required; X clears; id or type_id/name; new forces another flag).' })
  @IsOptional() @IsArray()
  flags?: unknown[];
}
