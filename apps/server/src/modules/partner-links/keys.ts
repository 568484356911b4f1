/**
 * What identifies a partner player across spellings: the normalised name (lower-case, whitespace
 * removed), the partner's stable id (lower-case), and the one-time proof code a user puts in
 * their partner-site name.
 */
import { randomInt } from 'node:crypto';
import { partnerIdFields, type PartnerIdKey } from '@kickback/common/http/accounts';
import { siteById, siteIds, type SiteId } from '@kickback/common/http/leaderboards';
import { proofMethodOf } from '@kickback/common/http/partner-links';
import type { PartnerLinkField } from '../../db/schema/partner-links';

export function nameKeyOf(text: string): string {
  return text.toLowerCase().replace(/\s/gu, '');
}

/** Letters and digits only, lower-case: "Neon Wolf | KB-7Q3XH" → "neonwolfkb7q3xh". */
export function alnumOf(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}

// No 0/O, 1/I/L: the user copies the code by hand into a partner-site name.
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

export function newProofCode(): string {
  let code = '';
  for (let i = 0; i < 5; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return `KB-${code}`;
}

export function fieldOfKey(key: PartnerIdKey): PartnerLinkField {
  const f = partnerIdFields.find((x) => x.key === key);
  if (!f) throw new RangeError(`unknown partner id ${key}`);
  return f.userKey;
}

export function keyOfField(field: PartnerLinkField): PartnerIdKey {
  const f = partnerIdFields.find((x) => x.userKey === field);
  if (!f) throw new RangeError(`unknown partner field ${field}`);
  return f.key;
}

export function labelOfField(field: PartnerLinkField): string {
  return partnerIdFields.find((x) => x.userKey === field)?.label ?? field;
}

export function usesProofCode(field: PartnerLinkField): boolean {
  return proofMethodOf[keyOfField(field)] === 'code';
}

/** The boards whose players a field links to (Clash.gg has two accounts, sites 1 and 2). */
export function sitesOfField(field: PartnerLinkField): SiteId[] {
  return siteIds.filter((s) => siteById(s)?.linkField === field);
}
