import { Module } from '@nestjs/common';
import { BugModule } from '../bug/bug.module.js';
import { ProductModule } from '../product/product.module.js';
import { FieldModule } from '../field/field.module.js';
import { FlagModule } from '../flag/flag.module.js';
import { GroupModule } from '../group/group.module.js';
import { UserModule } from '../user/user.module.js';
import { BugSearchController } from './bug-search.controller.js';
import { BugSearchService } from './bug-search.service.js';

/**
 * Search Bugs (`GET /rest/bug`): criteria, charts and quicksearch compiled into one WHERE with the bug module's
 * visibility rule; the page is presented by the bug module (BugService.searchPage). Criteria over comments and
 * attachments come through the ports of bug-search-sources.ts, which those modules provide; also BMO's Possible
 * Duplicates.
 */
@Module({
  imports: [BugModule, ProductModule, FieldModule, FlagModule, GroupModule, UserModule],
  controllers: [BugSearchController],
  providers: [BugSearchService],
})
export class BugSearchModule {}
