/**
 * Chat Simulator calls as server state: the chat log is a query that refreshes by itself while the
 * tab is visible; posting a message or switching the stream live invalidates the log (and the live
 * state other pages read), so the page shows the change by refetching instead of patching by hand.
 */
import { chatEndpoints } from '@kickback/common/http/chat';
import { useEndpointMutation, useEndpointQuery } from '../../lib/query';

const REFRESH_MS = 3000;

/** Polled every few seconds (TanStack pauses the interval while the tab is hidden). */
export const useChatLog = () =>
  useEndpointQuery(chatEndpoints.messages, {}, { refetchInterval: REFRESH_MS, staleTime: 0 });

const changes = [chatEndpoints.messages, chatEndpoints.liveState] as const;

export const useSimulateChat = () => useEndpointMutation(chatEndpoints.simulate, { invalidates: changes });

export const useSimulateLive = () => useEndpointMutation(chatEndpoints.live, { invalidates: changes });

/** Any other Kick event: its effects show on other pages (Users, Integrations), and the live state here. */
export const useSimulateEvent = () => useEndpointMutation(chatEndpoints.simulateEvent, { invalidates: changes });
