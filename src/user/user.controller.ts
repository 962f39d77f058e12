import { Controller, Get, Param, Post, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Ctx, type RequestContext } from '../common/http/request-context.js';
import { RequireGroup } from '../common/guards/access.decorators.js';
import { SelectableFields } from '../common/fields/field-selection.decorator.js';
import { UserService } from './user.service.js';
import { USER_FIELDS, UserReaderService, type UserQuery } from './user-reader.service.js';
import { USER_UPDATE_KEYS, UserEditorService } from './user-editor.service.js';

@ApiTags('Users')
@Controller()
export class UserController {
  constructor(private readonly users: UserService, private readonly reader: UserReaderService, private readonly editor: UserEditorService) {}

  @Get('user')
  @SelectableFields({ path: 'users[]', fields: USER_FIELDS })
  @ApiOperation({ summary: 'Get User by ids, names or match (with limit, include_disabled, group_ids, groups)' })
  async list(@Ctx() ctx: RequestContext) {
    return { users: await this.reader.get(this.query(ctx), ctx.caller, ctx.selection) };
  }

  @Get('user/:id_or_name')
  @SelectableFields({ path: 'users[]', fields: USER_FIELDS })
  @ApiOperation({ summary: 'Get User by id or login (plus ids, names, match)' })
  async one(@Param('id_or_name') idOrName: string, @Ctx() ctx: RequestContext) {
    return { users: await this.reader.get(this.query(ctx, idOrName), ctx.caller, ctx.selection) };
  }

  // Create User checks editusers directly: an anonymous caller gets 304, not 410 (misc.md).
  @Post('user')
  @RequireGroup('editusers', 'create', 'users')
  @ApiOperation({ summary: 'Create User (editusers): email, full_name, password' })
  async create(@Ctx() ctx: RequestContext) {
    const input = { email: ctx.params.string('email') ?? '', fullName: ctx.params.string('full_name'), password: ctx.params.string('password') };
    return { id: await this.users.create(input, { userId: ctx.caller.id, now: ctx.now }) };
  }

  @Put('user/:id_or_name')
  @RequireGroup('editusers', 'edit', 'users', { login: true })
  @ApiOperation({ summary: 'Update User (editusers): full_name, email, password, email_enabled, login_denied_text, groups, bless_groups' })
  async update(@Param('id_or_name') idOrName: string, @Ctx() ctx: RequestContext) {
    const data = ctx.params.data();
    const values = Object.fromEntries(USER_UPDATE_KEYS.filter((key) => data[key] !== undefined).map((key) => [key, data[key]]));
    return { users: await this.editor.update(ctx.params.idsAndNames(idOrName), values, ctx.caller, ctx.now) };
  }

  private query(ctx: RequestContext, segment?: string): UserQuery {
    const { ids, names } = ctx.params.idsAndNames(segment);
    return {
      ids,
      names,
      match: ctx.params.list('match'),
      limit: ctx.params.int('limit'),
      groupIds: ctx.params.intList('group_ids'),
      groups: ctx.params.list('groups'),
      includeDisabled: ctx.params.bool('include_disabled') ?? false,
    };
  }
}
