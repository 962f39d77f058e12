import { Module, type DynamicModule } from '@nestjs/common';
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
    return {
      module: CatalogueUsageModule,
      global: true,
      providers: [
        CatalogueUsageRepository,
        { provide: PRODUCT_BUG_USAGE, useExisting: CatalogueUsageRepository },
        { provide: KEYWORD_BUG_COUNTS, useExisting: CatalogueUsageRepository },
      ],
      exports: [PRODUCT_BUG_USAGE, KEYWORD_BUG_COUNTS],
    };
  }
}
