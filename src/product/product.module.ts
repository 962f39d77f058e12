import { Module } from '@nestjs/common';
import { FlagModule } from '../flag/flag.module.js';
import { GroupModule } from '../group/group.module.js';
import { UserModule } from '../user/user.module.js';
import { ClassificationController } from './classification.controller.js';
import { ClassificationService } from './classification.service.js';
import { ComponentController } from './component.controller.js';
import { ComponentService } from './component.service.js';
import { ProductAdminService } from './product-admin.service.js';
import { ProductValuesController } from './product-values.controller.js';
import { ProductValuesService } from './product-values.service.js';
import { ProductViewService } from './product-view.service.js';
import { ProductController } from './product.controller.js';
import { ProductService } from './product.service.js';

@Module({
  imports: [UserModule, GroupModule, FlagModule],
  controllers: [ProductController, ProductValuesController, ComponentController, ClassificationController],
  providers: [ProductService, ProductViewService, ProductAdminService, ProductValuesService, ComponentService, ClassificationService],
  exports: [ProductService, ProductValuesService, ClassificationService],
})
export class ProductModule {}
