import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { FieldModule } from '../field/field.module.js';
import { GroupModule } from '../group/group.module.js';
import { ParamsModule } from '../params/params.module.js';
import { ProductModule } from '../product/product.module.js';
import { UserModule } from '../user/user.module.js';
import { InstallService } from './install.service.js';

/**
 * The install data, written into an empty database at start. A module of the composition root (beside
 * entities.ts and app.module.ts): it hands each module its part of the data, through the module's service.
 */
@Module({
  imports: [GroupModule, UserModule, AuthModule, FieldModule, ProductModule, ParamsModule],
  providers: [InstallService],
  exports: [InstallService],
})
export class InstallModule {}
