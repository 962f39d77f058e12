import { ApiPropertyOptional } from '../../common/openapi/openapi-decorators.js';
import { Allow, IsBoolean, IsOptional, IsString } from 'class-validator';
import { BooleanParam, ScalarParam, TextParam } from '../../common/http/dto.js';
import { LONG_TEXT_MAX, MaxText, columnLength, freeText } from '../../common/text-limits.js';
import { User } from '../entities/user.entity.js';

// Over-long texts are refused before the service runs (issue 12); the address keeps UserRules' 127 (501).
const FULL_NAME = freeText(columnLength(User, 'realname'));

/**
 * Create User input (service-spec.md "Users and login"). Types only: the required, legal and free address (32000,
 * 501, 500) and the password rules (502, 305) stay in UserService, which the admin command line calls too.
 */
export class UserCreateInput {
  @ApiPropertyOptional({ description: 'Email address, also the login; required.' })
  @IsOptional() @IsString() @ScalarParam()
  email?: string;

  @ApiPropertyOptional({ description: 'Real name (empty if omitted).' })
  @IsOptional() @IsString() @ScalarParam() @MaxText(FULL_NAME)
  full_name?: string;

  @ApiPropertyOptional({ description: 'Plain-text password, trimmed; blank or omitted: the account cannot log in with a password.' })
  @IsOptional() @IsString() @ScalarParam()
  password?: string;
}

/**
 * The shape of `groups` / `bless_groups`, for the OpenAPI document only: the values are not converted into it, and
 * parseGroupChange checks them (each of add, remove, set a list, else 53) as before.
 */
export class GroupChangeShape {
  @ApiPropertyOptional({ type: [String], description: 'Group IDs or names to add.' })
  add?: Array<string | number>;

  @ApiPropertyOptional({ type: [String], description: 'Group IDs or names to remove (applied before add).' })
  remove?: Array<string | number>;

  @ApiPropertyOptional({ type: [String], description: 'The exact set of group IDs or names; add and remove are then ignored.' })
  set?: Array<string | number>;
}

/**
 * Update User input (updates.md "Update User"): texts read as textParam reads them (a list is 53). `groups` and
 * `bless_groups` keep Bugzilla's add/remove/set shape, typed loosely here and checked by parseGroupChange (53) and
 * the editor (51, 304) as before.
 */
export class UserUpdateInput {
  @ApiPropertyOptional({ description: 'Real name.' })
  @IsOptional() @IsString() @TextParam() @MaxText(FULL_NAME)
  full_name?: string;

  @ApiPropertyOptional({ description: 'Email address, also the login; only one user may be updated at a time when this is set.' })
  @IsOptional() @IsString() @TextParam()
  email?: string;

  @ApiPropertyOptional({ description: 'New password (length and complexity rules apply).' })
  @IsOptional() @IsString() @TextParam()
  password?: string;

  @ApiPropertyOptional({ description: 'Whether bug-related mail is sent to the user.' })
  @IsOptional() @IsBoolean() @BooleanParam()
  email_enabled?: boolean;

  @ApiPropertyOptional({ description: 'Reason for denying login; non-empty disables the account, empty enables it.' })
  @IsOptional() @IsString() @TextParam() @MaxText(freeText(LONG_TEXT_MAX))
  login_denied_text?: string;

  @ApiPropertyOptional({ type: GroupChangeShape, description: 'Direct memberships; with set, groups the caller cannot bless are kept.' })
  @IsOptional() @Allow()
  groups?: unknown;

  @ApiPropertyOptional({ type: GroupChangeShape, description: 'Same shape as groups; which groups the user may bless (editusers only).' })
  @IsOptional() @Allow()
  bless_groups?: unknown;
}
