/**
 * What the product module needs from the modules above it. Bugs and flag types refer to products, so those
 * modules import this one; where product needs them back, it names the need here and they provide it (the
 * composition root imports the modules that provide it).
 */
import type { Sql } from '../database/sql.js';

/** Bugs store the version and milestone text and point to their component (provided by the bug module). */
export interface ProductBugUsage {
  /** A version or milestone was renamed in a product: its bugs carry the new value. */
  renameValue(tx: Sql, kind: 'version' | 'milestone', productId: number, from: string, to: string): Promise<void>;
  /** The number of bugs of each component (components without bugs are absent). */
  bugCountsByComponent(tx: Sql, componentIds: readonly number[]): Promise<Map<number, number>>;
}

export const PRODUCT_BUG_USAGE = Symbol('ProductBugUsage');

/** A flag type as Get Product lists it under a component. */
export interface ComponentFlagType {
  id: number;
  name: string;
  description: string;
  ccList: string;
  sortKey: number;
  isActive: boolean;
  isRequestable: boolean;
  /** is_specifically_requestable of Bugzilla (the API spells it is_requesteeble). */
  isRequesteeble: boolean;
  isMultiplicable: boolean;
  grantGroupId: number | null;
  requestGroupId: number | null;
}

/** Flag types by component (provided by the flag module: flag types name products and components). */
export interface ProductFlagTypes {
  /** The types applying to each component, by target, in sort key and name order. */
  typesForComponents(components: ReadonlyArray<{ id: number; productId: number }>): Promise<Map<number, { bug: ComponentFlagType[]; attachment: ComponentFlagType[] }>>;
  /** The components are being deleted: the inclusions and exclusions naming them go too. */
  forgetComponents(tx: Sql, componentIds: readonly number[]): Promise<void>;
}

export const PRODUCT_FLAG_TYPES = Symbol('ProductFlagTypes');
