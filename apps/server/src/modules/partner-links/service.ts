/**
 * The partner-links module's public surface (other modules import only this file): which site user
 * a partner player belongs to, and the verified links that prizes, wager points and giveaway
 * filters must check — a claimed or rejected id never counts.
 */
export { labelOfField } from './keys';
export { linksForPlayers, sameMatch, verifiedPartnerLinks, verifiedValue } from './matching';
export type { LinkedUser, PlayerIdentity, PlayersMatch, VerifiedPartnerLink } from './matching';
export { activeLink, insertVerifiedLink, partnerIdTaken, replaceClaim } from './claims';
export { checkPartnerLinks } from './proof';
