import { Module } from '@nestjs/common';
import { BugModule } from '../bug/bug.module.js';
import { FlagModule } from '../flag/flag.module.js';
import { GroupModule } from '../group/group.module.js';
import { UserModule } from '../user/user.module.js';
import { BugFlagsService } from './bug-flags.service.js';

/**
 * The rules a change of a bug must pass, as Bugzilla 5.0 checks them: the workflow, who may change which field, flags,
 * group controls, aliases, See Also, dependency loops, the update objects. They decide and write nothing (but the flag
 * rule, which writes through the flag module), so Create and Update Bug (src/bug-write) and attachments (flags) share
 * them.
 */
@Module({
  imports: [BugModule, FlagModule, GroupModule, UserModule],
  providers: [BugFlagsService],
  exports: [BugFlagsService],
})
export class BugRulesModule {}
