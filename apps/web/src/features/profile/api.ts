/** The profile's calls (spec part 1 §7): partner ids, Kick codes, unlinking, preferences, Discord. */
import {
  accountEndpoints,
  type LinkedAccountType,
  type PartnerIdKey,
  type PartnerIdsBody,
  type PreferencesBody,
} from '@kickback/common/http/accounts';
import { myPartnerLinkEndpoints, type DisputeBody } from '@kickback/common/http/partner-links';
import { api } from '../../lib/api';

export const savePartnerIds = (body: PartnerIdsBody) => api(accountEndpoints.savePartnerIds, { body });

export const requestKickCode = () => api(accountEndpoints.kickCode);

export const unlinkAccount = (type: LinkedAccountType) => api(accountEndpoints.unlink, { query: { type } });

export const savePreferences = (body: PreferencesBody) => api(accountEndpoints.savePreferences, { body });

/** Discord linking is a browser navigation (OAuth); it comes back to `returnTo` with the result. */
export function startDiscordLink(returnTo: string): void {
  window.location.assign(`/auth/discord/signin?returnTo=${encodeURIComponent(returnTo)}`);
}

export const renewProofCode = (field: PartnerIdKey) => api(myPartnerLinkEndpoints.renewCode, { body: { field } });

export const contestPartnerId = (body: DisputeBody) => api(myPartnerLinkEndpoints.dispute, { body });
