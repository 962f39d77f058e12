import { Module } from '@nestjs/common';
import { FieldService } from './field.service.js';

@Module({ providers: [FieldService], exports: [FieldService] })
export class FieldModule {}
