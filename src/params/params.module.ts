import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Parameter } from './entities/parameter.entity.js';
import { ParametersRepository } from './parameters.repository.js';
import { ParametersService } from './parameters.service.js';

/** Installation parameters, read by nearly every module (requirelogin, insidergroup, defaults …). */
@Global()
@Module({ imports: [TypeOrmModule.forFeature([Parameter])], providers: [ParametersRepository, ParametersService], exports: [ParametersService] })
export class ParamsModule {}
