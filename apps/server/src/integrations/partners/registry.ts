/**
 * One adapter per partner site, from the configuration: the partner's API when its key is set,
 * the same adapter pointed at the local simulator otherwise (outside production), or none. A
 * partner's extra headers (PARTNER_HEADERS) go on every request its adapter makes.
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
  if (access.headers) http = withHeaders(http, access.headers);
  switch (site) {
    case 1:
    case 2:
      return clashFamilyAdapter({ site, http, baseUrl, apiKey: key, unit: 'gems', avatarOrigin: 'https://clash.gg' });
    case 3:
      return csgoBigAdapter({ site, http, baseUrl, refCode: key });
    case 4:
      return howlAdapter({ site, http, baseUrl, apiKey: key });
    case 5:
      return rustMagicAdapter({ site, http, baseUrl, apiKey: key, board: access.board ?? null });
    case 6:
      return roobetAdapter({ site, http, baseUrl, apiKey: key, affiliateId: access.affiliateId ?? '' });
    case 7:
      return casesAdapter({ site, http, baseUrl, apiKey: key });
  }
}

/** `http` that adds `extra` to every request, under the adapter's own headers (auth stays the adapter's). */
export function withHeaders(http: typeof fetch, extra: Record<string, string>): typeof fetch {
  return (input, init) => {
    const headers = new Headers(extra);
    new Headers(init?.headers).forEach((value, name) => headers.set(name, value));
    return http(input, { ...init, headers });
  };
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
