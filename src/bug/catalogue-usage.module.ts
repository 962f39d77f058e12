import { Module, type DynamicModule } from '@nestjs/common';
import { providingPorts } from '../common/modules/port.js';
import { KEYWORD_BUG_COUNTS } from '../field/field.tokens.js';
import { PRODUCT_BUG_USAGE } from '../product/product.tokens.js';
import { CatalogueUsageRepository } from './catalogue-usage.repository.js';

/**
 * The bug module's answers to the catalogue modules' ports (product.tokens.ts, field.tokens.ts): renaming a
 * version or milestone on bugs, bugs per component and per keyword. Product and field sit below bug and cannot
 * import it, so the composition root imports this, and these tokens, and nothing else of bug, are visible app-wide.
 */
@Module({})
export class CatalogueUsageModule {
  static forCatalogue(): DynamicModule {
    const ports = providingPorts(CatalogueUsageModule, [
      { token: PRODUCT_BUG_USAGE, implementation: CatalogueUsageRepository },
      { token: KEYWORD_BUG_COUNTS, implementation: CatalogueUsageRepository },
    ]);
    return { ...ports, providers: [CatalogueUsageRepository, ...ports.providers!] };
  }
}
