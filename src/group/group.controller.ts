import { Controller, Get, Param, Post, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Ctx, type RequestContext } from '../common/http/request-context.js';
import { RequireGroup, RequireLogin } from '../common/guards/access.decorators.js';
import { SelectableFields } from '../common/fields/field-selection.decorator.js';
import { GroupEditorService } from './group-editor.service.js';
import { GROUP_FIELDS, GroupReaderService } from './group-reader.service.js';

const UPDATABLE = ['name', 'description', 'user_regexp', 'is_active', 'icon_url'] as const;

@ApiTags('Groups')
@Controller()
export class GroupController {
  constructor(private readonly reader: GroupReaderService, private readonly editor: GroupEditorService) {}

  @Get('group')
  @RequireLogin()
  @SelectableFields({ path: 'groups[]', fields: GROUP_FIELDS })
  @ApiOperation({ summary: 'Get Group: groups by ids/names (all visible ones without either); membership=1 lists members' })
  async list(@Ctx() ctx: RequestContext) {
    return { groups: await this.reader.get(this.query(ctx), ctx.caller) };
  }

  @Get('group/:id_or_name')
  @RequireLogin()
  @SelectableFields({ path: 'groups[]', fields: GROUP_FIELDS })
  @ApiOperation({ summary: 'Get Group by id or name (the seed route; 5.0 has only GET /rest/group)' })
  async one(@Param('id_or_name') idOrName: string, @Ctx() ctx: RequestContext) {
    return { groups: await this.reader.get(this.query(ctx, idOrName), ctx.caller) };
  }

  @Post('group')
  @RequireGroup('creategroups', 'create', 'groups', { login: true })
  @ApiOperation({ summary: 'Create Group (creategroups): name, description, user_regexp, is_active, icon_url' })
  async create(@Ctx() ctx: RequestContext) {
    const data = ctx.params.data();
    const id = await this.editor.create(data, { userId: ctx.caller.id, now: ctx.now });
    return { id };
  }

  @Put('group/:id_or_name')
  @RequireGroup('creategroups', 'edit', 'groups', { login: true })
  @ApiOperation({ summary: 'Update Group (creategroups): the path group plus ids/names; name, description, user_regexp, is_active, icon_url' })
  async update(@Param('id_or_name') idOrName: string, @Ctx() ctx: RequestContext) {
    const data = ctx.params.data();
    const values = Object.fromEntries(UPDATABLE.filter((key) => data[key] !== undefined).map((key) => [key, data[key]]));
    return { groups: await this.editor.update(ctx.params.idsAndNames(idOrName), values, { userId: ctx.caller.id, now: ctx.now }) };
  }

  private query(ctx: RequestContext, segment?: string) {
    return { ...ctx.params.idsAndNames(segment), membership: ctx.params.bool('membership') ?? false };
  }
}
