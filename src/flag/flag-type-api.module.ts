import { Module } from '@nestjs/common';
import { GroupModule } from '../group/group.module.js';
import { ProductModule } from '../product/product.module.js';
import { FlagTypeAdminService } from './flag-type-admin.service.js';
import { FlagTypeController } from './flag-type.controller.js';
import { FlagTypeRepository } from './flag-type.repository.js';
import { FlagTypeViewService } from './flag-type-view.service.js';
import { FlagModule } from './flag.module.js';

/**
 * The flag_type routes, which name products and components. FlagModule, which the bug module imports, keeps only
 * the flag types and flags; Get Product reaches the flag types through PRODUCT_FLAG_TYPES (FlagModule.forProduct).
 */
@Module({
  imports: [FlagModule, ProductModule, GroupModule],
  controllers: [FlagTypeController],
  providers: [FlagTypeRepository, FlagTypeViewService, FlagTypeAdminService],
})
export class FlagTypeApiModule {}
