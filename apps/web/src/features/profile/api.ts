/** The profile's calls (docs/product.md#site-calls): partner ids, Kick codes, unlinking, preferences, Discord. */
import { accountEndpoints, type LinkedAccountType, type PreferencesBody } from '@kickback/common/http/accounts';
import { myPartnerLinkEndpoints } from '@kickback/common/http/partner-links';
import { api } from '../../lib/api';
import { useEndpointMutation, useEndpointQuery } from '../../lib/query';

/** Saving the ids changes the user's partner links: the links list refetches. */
export const useSavePartnerIds = () =>
  useEndpointMutation(accountEndpoints.savePartnerIds, { invalidates: [myPartnerLinkEndpoints.list] });

/**
 * A fresh Kick verification code while the Connect Kick window is open (never reused: it is
 * dropped once the window closes; refetch() asks for a new one).
 */
export const useKickCode = (enabled: boolean) =>
  useEndpointQuery(accountEndpoints.kickCode, {}, { enabled, staleTime: 0, gcTime: 0, retry: false });

export const unlinkAccount = (type: LinkedAccountType) => api(accountEndpoints.unlink, { query: { type } });

export const savePreferences = (body: PreferencesBody) => api(accountEndpoints.savePreferences, { body });

/** Discord linking is a browser navigation (OAuth); it comes back to `returnTo` with the result. */
export function startDiscordLink(returnTo: string): void {
  window.location.assign(`/auth/discord/signin?returnTo=${encodeURIComponent(returnTo)}`);
}

/** A new proof code, or a dispute over an id someone else holds: the links list refetches. */
export const useRenewProofCode = () =>
  useEndpointMutation(myPartnerLinkEndpoints.renewCode, { invalidates: [myPartnerLinkEndpoints.list] });

export const useContestPartnerId = () =>
  useEndpointMutation(myPartnerLinkEndpoints.dispute, { invalidates: [myPartnerLinkEndpoints.list] });
