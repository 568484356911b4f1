/**
 * One adapter per partner site, from the configuration: the partner's API when its key is set,
 * the same adapter pointed at the local simulator otherwise (outside production), or none.
 */
import type { SiteId } from '@kickback/common/http/leaderboards';
import type { PartnerAccess, PartnersConfig } from '../../config';
import { casesAdapter } from './cases/adapter';
import { clashFamilyAdapter } from './clash/adapter';
import { csgoBigAdapter } from './csgobig/adapter';
import { howlAdapter } from './howl/adapter';
import { roobetAdapter } from './roobet/adapter';
import { rustMagicAdapter } from './rustmagic/adapter';
import type { PartnerAdapter } from './types';

export interface PartnerProvider {
  mode: 'partner' | 'simulator';
  adapter: PartnerAdapter;
}

function adapterFor(
  site: SiteId,
  access: Exclude<PartnerAccess, { mode: 'none' }>,
  http: typeof fetch,
): PartnerAdapter {
  const { baseUrl, key } = access;
  switch (site) {
    case 1:
    case 2:
      return clashFamilyAdapter({ site, http, baseUrl, apiKey: key, unit: 'gems', avatarOrigin: 'https://clash.gg' });
    case 3:
      return csgoBigAdapter({ site, http, baseUrl, refCode: key });
    case 4:
      return howlAdapter({ site, http, baseUrl, apiKey: key });
    case 5:
      return rustMagicAdapter({ site, http, baseUrl, apiKey: key });
    case 6:
      return roobetAdapter({ site, http, baseUrl, apiKey: key, affiliateId: access.affiliateId ?? '' });
    case 7:
      return casesAdapter({ site, http, baseUrl, apiKey: key });
  }
}

export function buildPartnerProviders(
  partners: PartnersConfig,
  http: typeof fetch,
): Partial<Record<SiteId, PartnerProvider>> {
  const out: Partial<Record<SiteId, PartnerProvider>> = {};
  for (const site of [1, 2, 3, 4, 5, 6, 7] as const) {
    const access = partners[site];
    if (access.mode === 'none') continue;
    out[site] = { mode: access.mode, adapter: adapterFor(site, access, http) };
  }
  return out;
}

export function usesSimulators(partners: PartnersConfig): boolean {
  return Object.values(partners).some((p) => p.mode === 'simulator');
}
