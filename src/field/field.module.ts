import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ProductModule } from '../product/product.module.js';
import { FieldDefinition } from './entities/field-definition.entity.js';
import { FieldValue } from './entities/field-value.entity.js';
import { Keyword } from './entities/keyword.entity.js';
import { StatusTransition } from './entities/status-transition.entity.js';
import { FieldController } from './field.controller.js';
import { FieldRepository } from './field.repository.js';
import { FieldViewService } from './field-view.service.js';
import { FieldService } from './field.service.js';
import { KeywordController } from './keyword.controller.js';
import { KeywordRepository } from './keyword.repository.js';
import { KeywordService } from './keyword.service.js';

/** Field definitions, legal values, the status workflow and keywords. Bug counts of keywords come from KEYWORD_BUG_COUNTS. */
@Module({
  imports: [TypeOrmModule.forFeature([FieldDefinition, FieldValue, StatusTransition, Keyword]), ProductModule],
  controllers: [FieldController, KeywordController],
  providers: [FieldRepository, KeywordRepository, FieldService, FieldViewService, KeywordService],
  exports: [FieldService],
})
export class FieldModule {}
