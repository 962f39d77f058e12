import { Module } from '@nestjs/common';
import { GroupModule } from '../group/group.module.js';
import { ProductModule } from '../product/product.module.js';
import { FlagTypeAdminService } from './flag-type-admin.service.js';
import { FlagTypeController } from './flag-type.controller.js';
import { FlagTypeViewService } from './flag-type-view.service.js';
import { FlagModule } from './flag.module.js';

/**
 * The flag_type routes. They name products and components, so they sit above the product module, while the
 * FlagTypeService (FlagModule) stays below it: Get Product lists each component's flag types through it.
 */
@Module({
  imports: [FlagModule, ProductModule, GroupModule],
  controllers: [FlagTypeController],
  providers: [FlagTypeViewService, FlagTypeAdminService],
})
export class FlagTypeApiModule {}
