/**
 * Earning that cannot be farmed (docs/features/fair-earning.md): what the crediting modules
 * (channel points, chat points), the sign-in and the partner ids call.
 */
export { conversionRefusal } from './conversions';
export { grantWithinDailyCap, utcDay, type CapKind, type Want } from './caps';
export { readFairSettings } from './settings';
export { ageRefusal } from './ages';
