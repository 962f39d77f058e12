import { Injectable } from '@nestjs/common';
import type { Caller } from '../common/caller.js';
import { Errors, TrackerError } from '../common/errors/index.js';
import { ProductService } from '../product/product.service.js';
import { FlagTypeService, type FlagTypeRecord } from './flag-type.service.js';

/** Bugzilla's can_set_flag: no grant group, or a member of it. */
export function canSetFlag(caller: Caller, type: FlagTypeRecord): boolean {
  return type.grantGroupId === null || caller.inGroupId(type.grantGroupId);
}

/** Bugzilla's can_request_flag: whoever may set it, or no request group, or a member of it. */
export function canRequestFlag(caller: Caller, type: FlagTypeRecord): boolean {
  return canSetFlag(caller, type) || type.requestGroupId === null || caller.inGroupId(type.requestGroupId);
}

/**
 * GET /rest/flag_type/(product)[/(component)] (5.0's FlagType.get): the types that apply, each with the statuses
 * the caller may choose (`X` always; `?` when requestable and the caller may request; `+`/`-` when they may grant).
 */
@Injectable()
export class FlagTypeViewService {
  constructor(private readonly products: ProductService, private readonly flagTypes: FlagTypeService) {}

  async forProduct(caller: Caller, productName: string, componentName?: string) {
    // Bugzilla's FlagType.get looks the product up by name only.
    const product = await this.products.findByName(productName);
    if (!product || !(await this.products.canAccess(caller, product.id))) {
      throw TrackerError.of(Errors.PRODUCT_ACCESS_DENIED, { product: productName });
    }
    let componentId: number | undefined;
    if (componentName !== undefined) {
      const component = await this.products.componentByName(product.id, componentName);
      if (!component) throw TrackerError.of(Errors.OBJECT_DOES_NOT_EXIST, { kind: 'component', name: componentName, product: product.name });
      componentId = component.id;
    }
    const types = await this.flagTypes.typesForProduct(product.id, componentId);
    const present = (type: FlagTypeRecord) => ({
      id: type.id,
      name: type.name,
      description: type.description,
      type: type.targetType,
      values: [
        'X',
        ...(type.isRequestable && canRequestFlag(caller, type) ? ['?'] : []),
        ...(canSetFlag(caller, type) ? ['+', '-'] : []),
      ],
      is_requesteeble: type.isRequesteeble,
      is_multiplicable: type.isMultiplicable,
      is_active: type.isActive,
    });
    return {
      bug: types.filter((t) => t.targetType === 'bug').map(present),
      attachment: types.filter((t) => t.targetType === 'attachment').map(present),
    };
  }
}
