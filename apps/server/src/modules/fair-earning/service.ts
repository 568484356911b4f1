/**
 * Earning that cannot be farmed (docs/features/fair-earning.md): what the crediting modules
 * (channel points, chat points), the giveaway's entry, the sign-in and the partner ids call.
 */
export { conversionRefusal } from './conversions';
export { grantWithinDailyCap, utcDay, type CapKind, type Want } from './caps';
export { readFairSettings } from './settings';
export { ageRefusal, AGE_SETTINGS_SQL } from './ages';
