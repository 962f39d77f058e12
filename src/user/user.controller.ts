import { applyDecorators, Controller, Get, Param, Post, Put } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiQuery, ApiTags } from '../common/openapi/openapi-decorators.js';
import { Ctx, type RequestContext } from '../common/http/request-context.js';
import { ApiIdsAndNamesQuery } from '../common/http/dto.js';
import { Input } from '../common/http/input.decorator.js';
import { RequireGroup } from '../common/guards/access.decorators.js';
import { SelectableFields } from '../common/fields/field-selection.decorator.js';
import { UserService } from './user.service.js';
import { USER_FIELDS, UserReaderService, type UserQuery } from './user-reader.service.js';
import { UserEditorService } from './user-editor.service.js';
import { UserCreateInput, UserUpdateInput } from './dto/user.dto.js';

/** More users beside the path's one. */
const TargetQuery = () =>
  ApiIdsAndNamesQuery({ ids: 'User IDs (repeated or comma list); logged-out callers cannot use them.', names: 'Logins.' });

/**
 * The query of Get User (service-spec.md "Get User parameters"). GET parameters are read by RequestParams, the
 * one reader of Bugzilla's query encodings (repeated keys, comma lists, 52 for a non-numeric id), into UserQuery.
 */
const GetUserQuery = () =>
  applyDecorators(
    TargetQuery(),
    ApiQuery({
      name: 'match', required: false, type: String, isArray: true,
      description: 'Users whose real name or login contains any of these strings (an exact login wins); requires login.',
    }),
    ApiQuery({ name: 'limit', required: false, type: Number, description: 'At most this many matches per string (capped by maxusermatches).' }),
    ApiQuery({ name: 'include_disabled', required: false, type: Boolean, description: 'Include disabled accounts in match results.' }),
    ApiQuery({ name: 'group_ids', required: false, type: Number, isArray: true, description: 'Only users in any of these groups (IDs).' }),
    ApiQuery({ name: 'groups', required: false, type: String, isArray: true, description: 'Only users in any of these groups (names).' }),
  );

@ApiTags('Users')
@Controller()
export class UserController {
  constructor(private readonly users: UserService, private readonly reader: UserReaderService, private readonly editor: UserEditorService) {}

  @Get('user')
  @SelectableFields({ path: 'users[]', fields: USER_FIELDS })
  @ApiOperation({ summary: 'Get User by ids, names or match (with limit, include_disabled, group_ids, groups)' })
  @GetUserQuery()
  async list(@Ctx() ctx: RequestContext) {
    return { users: await this.reader.get(this.query(ctx), ctx.caller, ctx.selection) };
  }

  // A static path: Fastify takes it before `user/:id_or_name`, so no account named `suggest` is reached by it.
  @Get('user/suggest')
  @ApiOperation({ summary: 'Suggest Users for a name being typed (match); answers {users: [{id, real_name, nick, name}]}. Beyond Bugzilla 5.0 (BMO).' })
  @ApiQuery({ name: 'match', required: true, type: String, description: 'At least 3 characters: `:nick`, a login\'s beginning, or words of a real name.' })
  async suggest(@Ctx() ctx: RequestContext) {
    return { users: await this.reader.suggest(ctx.params.string('match'), ctx.caller) };
  }

  @Get('user/:id_or_name')
  @SelectableFields({ path: 'users[]', fields: USER_FIELDS })
  @ApiOperation({ summary: 'Get User by id or login (plus ids, names, match)' })
  @GetUserQuery()
  async one(@Param('id_or_name') idOrName: string, @Ctx() ctx: RequestContext) {
    return { users: await this.reader.get(this.query(ctx, idOrName), ctx.caller, ctx.selection) };
  }

  // Create User checks editusers directly: an anonymous caller gets 304, not 410 (misc.md).
  @Post('user')
  @RequireGroup('editusers', 'create', 'users')
  @ApiOperation({ summary: 'Create User (editusers): email, full_name, password' })
  @ApiBody({ type: UserCreateInput })
  async create(@Input(UserCreateInput, 'User.create') input: UserCreateInput, @Ctx() ctx: RequestContext) {
    // UserService.create also serves the admin command line, in its own words.
    const user = { email: input.email ?? '', fullName: input.full_name, password: input.password };
    return { id: await this.users.create(user, { userId: ctx.caller.id, now: ctx.now }) };
  }

  @Put('user/:id_or_name')
  @RequireGroup('editusers', 'edit', 'users', { login: true })
  @ApiOperation({ summary: 'Update User (editusers): full_name, email, password, email_enabled, login_denied_text, groups, bless_groups' })
  @ApiBody({ type: UserUpdateInput })
  @TargetQuery()
  async update(@Param('id_or_name') idOrName: string, @Input(UserUpdateInput, 'User.update') input: UserUpdateInput, @Ctx() ctx: RequestContext) {
    return { users: await this.editor.update(ctx.params.idsAndNames(idOrName), input, ctx.caller, ctx.now) };
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
