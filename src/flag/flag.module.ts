import { Module } from '@nestjs/common';
import { FlagTypeService } from './flag-type.service.js';

@Module({ providers: [FlagTypeService], exports: [FlagTypeService] })
export class FlagModule {}
