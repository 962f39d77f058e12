import { Module } from '@nestjs/common';
import { ProductModule } from '../product/product.module.js';
import { FieldController } from './field.controller.js';
import { FieldViewService } from './field-view.service.js';
import { FieldService } from './field.service.js';
import { KeywordController } from './keyword.controller.js';
import { KeywordService } from './keyword.service.js';

@Module({
  imports: [ProductModule],
  controllers: [FieldController, KeywordController],
  providers: [FieldService, FieldViewService, KeywordService],
  exports: [FieldService],
})
export class FieldModule {}
