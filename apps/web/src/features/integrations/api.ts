import { integrationEndpoints } from '@kickback/common/http/integrations';
import { api } from '../../lib/api';

export const loadIntegrations = (signal?: AbortSignal) => api(integrationEndpoints.overview, signal ? { signal } : {});

export const startKickBotConnect = () => api(integrationEndpoints.connectKickBot);

export const disconnectKickBot = () => api(integrationEndpoints.disconnectKickBot);
