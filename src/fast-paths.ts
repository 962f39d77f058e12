import { fastPath, type FastPathRoute } from './common/http/fast-paths.js';
import { BugController } from './bug/bug.controller.js';
import { BugGetAnswer } from './bug/store/bug-get.answer.js';
import { BugStampsCompanion, BugStampsForWriteCompanion } from './bug/store/bug-stamps.companion.js';
import { BugVisibilityCompanion } from './bug/store/bug-visibility.companion.js';
import { BugCreateController } from './bug-write/bug-create.controller.js';
import { BugUpdateController } from './bug-write/bug-update.controller.js';
import { CommentController } from './comment/comment.controller.js';
import { CommentsAnswer } from './comment/store/comment-get.answer.js';
import { AttachmentController } from './attachment/attachment.controller.js';
import { InfoController } from './info/info.controller.js';
import { VersionAnswer } from './info/store/version.answer.js';

/**
 * The routes' fast paths, all in one place (src/common/http/fast-paths.ts says what each is): the controllers say
 * what a route does, this table which machinery serves it. A route not named here is served by its handler alone.
 * app.factory declares it before Nest takes the routes.
 */
export const FAST_PATHS: readonly FastPathRoute[] = [
  // Warm reads: the bugs' stamps come with the credential, and a kept answer is sent from the request hook.
  fastPath(BugController, 'get', { companion: BugStampsCompanion, keptAnswer: BugGetAnswer }),
  fastPath(CommentController, 'ofBugs', { companion: BugStampsCompanion, keptAnswer: CommentsAnswer }),
  fastPath(InfoController, 'version', { keptAnswer: VersionAnswer }),
  // Reads of what hangs on a bug: the bug's visibility comes with the credential.
  fastPath(BugController, 'history', { companion: BugVisibilityCompanion }),
  fastPath(AttachmentController, 'ofBug', { companion: BugVisibilityCompanion }),
  // Writes: Create and Update Bug presume their caller; the others bring the bugs' stamps with the credential.
  fastPath(BugCreateController, 'create', { presumesCaller: true }),
  fastPath(BugUpdateController, 'update', { presumesCaller: true, companion: BugVisibilityCompanion }),
  fastPath(CommentController, 'create', { companion: BugStampsForWriteCompanion }),
  fastPath(AttachmentController, 'create', { companion: BugStampsForWriteCompanion }),
];
