import { Injectable } from '@nestjs/common';
import type { CompanionRequest } from '../../common/http/companion-read.js';
import { toDto } from '../../common/http/dto.js';
import type { KeptAnswer } from '../../common/http/kept-answer.js';
import type { RawJson } from '../../common/http/raw-json.js';
import type { RequestContext } from '../../common/http/request-context.js';
import { BugService } from '../bug.service.js';
import { BugGetInput } from '../dto/bug-read.dto.js';

/**
 * Get Bug, as its route's handler and as the request hook's KeptAnswer once the bugs' stamps came with the caller's
 * credential: one implementation for both ways in, so they cannot answer apart.
 */
@Injectable()
export class BugGetAnswer implements KeptAnswer {
  constructor(private readonly bugs: BugService) {}

  /** The bug named in the path, plus `ids`, as Get Bug answers them. */
  respond(context: RequestContext, idOrAlias: string, input: BugGetInput): Promise<RawJson> {
    return this.bugs.get(context, context.params.listWithPath('ids', [idOrAlias]), input.permissive === true);
  }

  answer(context: RequestContext, request: CompanionRequest): Promise<RawJson> {
    return this.respond(context, request.path.id_or_alias, toDto(BugGetInput, request.params, 'Bug.get'));
  }
}
