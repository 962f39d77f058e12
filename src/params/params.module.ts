import { Global, Module } from '@nestjs/common';
import { ParametersService } from './parameters.service.js';

/** Installation parameters, read by nearly every module (requirelogin, insidergroup, defaults …). */
@Global()
@Module({ providers: [ParametersService], exports: [ParametersService] })
export class ParamsModule {}
