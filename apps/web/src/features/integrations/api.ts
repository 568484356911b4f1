import { integrationsOverview } from '@kickback/common/http/integrations';
import { z } from 'zod';
import { api } from '../../lib/api';

export const loadIntegrations = (signal?: AbortSignal) =>
  api('/api/admin/integrations', { schema: integrationsOverview, ...(signal ? { signal } : {}) });

export const startKickBotConnect = () =>
  api('/api/admin/integrations/kick-bot/connect', { method: 'POST', body: {}, schema: z.object({ url: z.string() }) });

export const disconnectKickBot = () =>
  api('/api/admin/integrations/kick-bot', { method: 'DELETE', schema: z.object({ message: z.string() }) });
