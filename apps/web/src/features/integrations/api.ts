/**
 * Integrations calls as server state: the overview is a query keyed by its endpoint; disconnecting
 * the Kick bot invalidates it, so the card refetches instead of being reloaded by hand. Connecting
 * only fetches Kick's consent URL (the page then leaves for it). Removing the demo data refreshes the
 * Go live checklist and the pages that listed demo rows.
 */
import { challengeEndpoints } from '@kickback/common/http/challenges';
import { integrationEndpoints } from '@kickback/common/http/integrations';
import { integrationSettingsEndpoints } from '@kickback/common/http/integration-settings';
import { adminProductEndpoints, storeEndpoints } from '@kickback/common/http/store';
import { useEndpointMutation, useEndpointQuery } from '../../lib/query';

/** Read afresh on each visit: an operator opens this page to see what changed since. */
export const useIntegrations = () => useEndpointQuery(integrationEndpoints.overview, {}, { staleTime: 0 });

export const useConnectKickBot = () => useEndpointMutation(integrationEndpoints.connectKickBot);

export const useDisconnectKickBot = () =>
  useEndpointMutation(integrationEndpoints.disconnectKickBot, { invalidates: [integrationEndpoints.overview] });

/** Bot messages: the posting mode and the separate bot account; each refetches the overview. */
export const useSetKickChatMode = () =>
  useEndpointMutation(integrationEndpoints.setKickChatMode, { invalidates: [integrationEndpoints.overview] });
export const useConnectKickBotAccount = () => useEndpointMutation(integrationEndpoints.connectKickBotAccount);
export const useDisconnectKickBotAccount = () =>
  useEndpointMutation(integrationEndpoints.disconnectKickBotAccount, { invalidates: [integrationEndpoints.overview] });

/** Admin → Go live: read afresh on each visit, like the overview it is built from. */
export const useGoLive = () => useEndpointQuery(integrationEndpoints.goLive, {}, { staleTime: 0 });

/** The removal's confirmation: the finished events demo accounts took part in (kept as announced), read when it opens. */
export const useDemoDataPreview = (enabled: boolean) =>
  useEndpointQuery(integrationEndpoints.demoDataPreview, {}, { enabled, staleTime: 0 });

/** Remove demo data: the checklist refetches (its Demo data item turns Ready), and so do the store and challenges. */
export const useRemoveDemoData = () =>
  useEndpointMutation(integrationEndpoints.removeDemoData, {
    invalidates: [
      integrationEndpoints.goLive,
      storeEndpoints.products,
      adminProductEndpoints.list,
      challengeEndpoints.publicList,
      challengeEndpoints.all,
    ],
  });

/** Go live's test buttons: the result is shown where the button is; the checklist refetches (the bot's last post). */
export const useTestMessage = () =>
  useEndpointMutation(integrationSettingsEndpoints.testMessage, { invalidates: [integrationEndpoints.goLive] });
export const useTestDm = () =>
  useEndpointMutation(integrationSettingsEndpoints.testDm, { invalidates: [integrationEndpoints.goLive] });
