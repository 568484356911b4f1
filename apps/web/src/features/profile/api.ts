/** The profile's calls (spec part 1 §7): partner ids, Kick codes, unlinking, preferences, Discord. */
import {
  kickLinkKey,
  type LinkedAccountType,
  type PartnerIdKey,
  type PartnerIdsBody,
  type PreferencesBody,
} from '@kickback/common/http/accounts';
import { messageBody } from '@kickback/common/http/errors';
import type { DisputeBody } from '@kickback/common/http/partner-links';
import { api } from '../../lib/api';

export const savePartnerIds = (body: PartnerIdsBody) =>
  api('/api/User/ids', { method: 'POST', body, schema: messageBody });

export const requestKickCode = () => api('/api/User/link/kick', { schema: kickLinkKey });

export const unlinkAccount = (type: LinkedAccountType) => api(`/api/User/unlink?type=${type}`, { schema: messageBody });

export const savePreferences = (body: PreferencesBody) =>
  api('/api/User/preferences', { method: 'POST', body, schema: messageBody });

/** Discord linking is a browser navigation (OAuth); it comes back to `returnTo` with the result. */
export function startDiscordLink(returnTo: string): void {
  window.location.assign(`/auth/discord/signin?returnTo=${encodeURIComponent(returnTo)}`);
}

export const renewProofCode = (field: PartnerIdKey) =>
  api('/api/User/partner-links/code', { method: 'POST', body: { field } });

export const contestPartnerId = (body: DisputeBody) =>
  api('/api/User/partner-links/dispute', { method: 'POST', body, schema: messageBody });
