import { chatLiveResult, chatLog, chatSimulateResult, type ChatSimulateBody } from '@kickback/common/http/chat';
import { api } from '../../lib/api';

export const loadChatLog = (signal?: AbortSignal) =>
  api('/api/admin/chat/messages', { schema: chatLog, ...(signal ? { signal } : {}) });

export const simulateChat = (body: ChatSimulateBody) =>
  api('/api/admin/chat/simulate', { method: 'POST', body, schema: chatSimulateResult });

export const simulateLive = (isLive: boolean) =>
  api('/api/admin/chat/live', { method: 'POST', body: { isLive }, schema: chatLiveResult });
