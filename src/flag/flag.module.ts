import { Module, type DynamicModule } from '@nestjs/common';
import { providingPorts } from '../common/modules/port.js';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PRODUCT_FLAG_TYPES } from '../product/product.tokens.js';
import { FlagExclusion } from './entities/flag-exclusion.entity.js';
import { FlagInclusion } from './entities/flag-inclusion.entity.js';
import { FlagType } from './entities/flag-type.entity.js';
import { Flag } from './entities/flag.entity.js';
import { FlagTypeRepository } from './flag-type.repository.js';
import { FlagTypeService } from './flag-type.service.js';
import { FlagRepository } from './flag.repository.js';
import { FlagService } from './flag.service.js';
import { FlagSearchRepository } from './flag-search.repository.js';
import { FlagSearchService } from './flag-search.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([FlagType, FlagInclusion, FlagExclusion, Flag])],
  providers: [FlagTypeRepository, FlagRepository, FlagTypeService, FlagService, FlagSearchRepository, FlagSearchService],
  exports: [FlagTypeService, FlagService, FlagSearchService],
})
export class FlagModule {
  /**
   * The flag module as the composition root imports it: it provides the product module's PRODUCT_FLAG_TYPES port
   * (flag types of each component on Get Product). Product cannot import flag (flag types name products), so that
   * one token, and nothing else of flag, is made visible app-wide.
   */
  static forProduct(): DynamicModule {
    return providingPorts(FlagModule, [{ token: PRODUCT_FLAG_TYPES, implementation: FlagTypeService }]);
  }
}
