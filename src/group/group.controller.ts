import { applyDecorators, Controller, Get, Param, Post, Put } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiQuery, ApiTags } from '../common/openapi/openapi-decorators.js';
import { Ctx, type RequestContext } from '../common/http/request-context.js';
import { ApiIdsAndNamesQuery } from '../common/http/dto.js';
import { Input } from '../common/http/input.decorator.js';
import { RequireGroup, RequireLogin } from '../common/guards/access.decorators.js';
import { SelectableFields } from '../common/fields/field-selection.decorator.js';
import { GroupEditorService } from './group-editor.service.js';
import { GROUP_FIELDS, GroupReaderService, type GroupQuery } from './group-reader.service.js';
import { GroupInput } from './dto/group.dto.js';

/** More groups beside the path's one. */
const TargetQuery = () =>
  ApiIdsAndNamesQuery({ ids: 'Group IDs (Get Group skips unknown ones).', names: 'Group names; an unknown one is error 51.' });

const GetGroupQuery = () =>
  applyDecorators(
    TargetQuery(),
    ApiQuery({ name: 'membership', required: false, type: Boolean, description: 'Set to 1 to return the members of each group (key membership).' }),
  );

@ApiTags('Groups')
@Controller()
export class GroupController {
  constructor(private readonly reader: GroupReaderService, private readonly editor: GroupEditorService) {}

  @Get('group')
  @RequireLogin()
  @SelectableFields({ path: 'groups[]', fields: GROUP_FIELDS })
  @ApiOperation({ summary: 'Get Group: groups by ids/names (all visible ones without either); membership=1 lists members' })
  @GetGroupQuery()
  async list(@Ctx() ctx: RequestContext) {
    return { groups: await this.reader.get(this.query(ctx), ctx.caller) };
  }

  @Get('group/:id_or_name')
  @RequireLogin()
  @SelectableFields({ path: 'groups[]', fields: GROUP_FIELDS })
  @ApiOperation({ summary: 'Get Group by id or name (Bugzilla 5.0 has only GET /rest/group with ids or names). Beyond Bugzilla 5.0.' })
  @GetGroupQuery()
  async one(@Param('id_or_name') idOrName: string, @Ctx() ctx: RequestContext) {
    return { groups: await this.reader.get(this.query(ctx, idOrName), ctx.caller) };
  }

  @Post('group')
  @RequireGroup('creategroups', 'create', 'groups', { login: true })
  @ApiOperation({ summary: 'Create Group (creategroups): name, description, user_regexp, is_active, icon_url' })
  @ApiBody({ type: GroupInput })
  async create(@Input(GroupInput, 'Group.create') input: GroupInput, @Ctx() ctx: RequestContext) {
    return { id: await this.editor.create(input, { userId: ctx.caller.id, now: ctx.now }) };
  }

  @Put('group/:id_or_name')
  @RequireGroup('creategroups', 'edit', 'groups', { login: true })
  @ApiOperation({ summary: 'Update Group (creategroups): the path group plus ids/names; name, description, user_regexp, is_active, icon_url' })
  @ApiBody({ type: GroupInput })
  @TargetQuery()
  async update(@Param('id_or_name') idOrName: string, @Input(GroupInput, 'Group.update') input: GroupInput, @Ctx() ctx: RequestContext) {
    return { groups: await this.editor.update(ctx.params.idsAndNames(idOrName), input, { userId: ctx.caller.id, now: ctx.now }) };
  }

  private query(ctx: RequestContext, segment?: string): GroupQuery {
    return { ...ctx.params.idsAndNames(segment), membership: ctx.params.bool('membership') ?? false };
  }
}
