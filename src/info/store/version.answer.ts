import { Injectable } from '@nestjs/common';
import type { KeptAnswer } from '../../common/http/kept-answer.js';
import { RawJson } from '../../common/http/raw-json.js';
import { TRACKER_VERSION } from '../info.service.js';

/**
 * Get Version (`GET /rest/version`), as its route's handler and as the request hook's KeptAnswer: the same for every
 * caller the route's access rule lets in, so the hook answers it without Nest's pipeline (issue 13: the pipeline was
 * a third of what the service spent on it).
 */
@Injectable()
export class VersionAnswer implements KeptAnswer {
  readonly body = Object.freeze({ version: TRACKER_VERSION });
  private readonly json = RawJson.tagged(JSON.stringify(this.body));

  answer(): Promise<RawJson> {
    return Promise.resolve(this.json);
  }
}
