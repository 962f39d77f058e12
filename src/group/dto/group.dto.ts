import { ApiPropertyOptional } from '../../common/openapi/openapi-decorators.js';
import { IsBoolean, IsOptional, IsString } from 'class-validator';
import { BooleanParam, TextParam } from '../../common/http/dto.js';
import { LONG_TEXT_MAX, MaxText, columnLength, freeText } from '../../common/text-limits.js';
import { Group } from '../entities/group.entity.js';

/**
 * Create Group / Update Group input (routes.md "Groups", updates.md "Update Group"). Types only: the required name
 * and description (800/802), a unique name (801) and a regexp that compiles (803) are the editor's rules.
 */
export class GroupInput {
  @ApiPropertyOptional({ description: 'Unique group name; required on create.' })
  @IsOptional() @IsString() @TextParam() @MaxText(freeText(columnLength(Group, 'name')))
  name?: string;

  @ApiPropertyOptional({ description: 'Human-readable name shown in the UI; required on create.' })
  @IsOptional() @IsString() @TextParam() @MaxText(freeText(LONG_TEXT_MAX))
  description?: string;

  @ApiPropertyOptional({ description: 'Regular expression; users whose login matches are granted membership automatically.' })
  @IsOptional() @IsString() @TextParam() @MaxText(freeText(columnLength(Group, 'userRegexp')))
  user_regexp?: string;

  @ApiPropertyOptional({ description: 'Whether the group is active and eligible for bugs; a group created without it is inactive.' })
  @IsOptional() @IsBoolean() @BooleanParam()
  is_active?: boolean;

  @ApiPropertyOptional({ description: 'URL of a small icon shown next to the names of members; empty clears it.' })
  @IsOptional() @IsString() @TextParam() @MaxText(freeText(columnLength(Group, 'iconUrl')))
  icon_url?: string;
}
