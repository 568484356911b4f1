import { chatEndpoints, type ChatSimulateBody } from '@kickback/common/http/chat';
import { api } from '../../lib/api';

export const loadChatLog = (signal?: AbortSignal) => api(chatEndpoints.messages, signal ? { signal } : {});

export const simulateChat = (body: ChatSimulateBody) => api(chatEndpoints.simulate, { body });

export const simulateLive = (isLive: boolean) => api(chatEndpoints.live, { body: { isLive } });
