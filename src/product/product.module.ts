import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { GroupModule } from '../group/group.module.js';
import { UserModule } from '../user/user.module.js';
import { ClassificationController } from './classification.controller.js';
import { ClassificationRepository } from './classification.repository.js';
import { ClassificationService } from './classification.service.js';
import { ComponentController } from './component.controller.js';
import { ComponentRepository } from './component.repository.js';
import { ComponentService } from './component.service.js';
import { Classification } from './entities/classification.entity.js';
import { ComponentCc } from './entities/component-cc.entity.js';
import { Component } from './entities/component.entity.js';
import { GroupControl } from './entities/group-control.entity.js';
import { Milestone } from './entities/milestone.entity.js';
import { Product } from './entities/product.entity.js';
import { Version } from './entities/version.entity.js';
import { ProductAdminService } from './product-admin.service.js';
import { ProductValuesController } from './product-values.controller.js';
import { ProductValuesService } from './product-values.service.js';
import { ProductViewService } from './product-view.service.js';
import { ProductController } from './product.controller.js';
import { ProductRepository } from './product.repository.js';
import { ProductService } from './product.service.js';

/**
 * Products, components, versions, milestones, group controls and classifications. What it needs from the modules
 * above it (bugs of a component, flag types of a component) it asks through the tokens of product.tokens.ts,
 * which those modules provide at the composition root.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([Product, Classification, Component, ComponentCc, Version, Milestone, GroupControl]),
    UserModule,
    GroupModule,
  ],
  controllers: [ProductController, ProductValuesController, ComponentController, ClassificationController],
  providers: [
    ProductRepository, ComponentRepository, ClassificationRepository,
    ProductService, ProductViewService, ProductAdminService, ProductValuesService, ComponentService, ClassificationService,
  ],
  exports: [ProductService],
})
export class ProductModule {}
