/**
 * The live prediction for the overlay, on the shared live-state hook: the public `/KickPrediction`
 * hub, `GetState` after every (re)connect, the newest `ReceiveState` kept (the server already
 * coalesces bet updates to a few a second), and the contract's toast when it cannot connect.
 */
import { toast } from 'react-toastify';
import type { predictionHub } from '@kickback/common/hubs/prediction';
import { hubRef } from '../../lib/hub';
import { UNATTENDED_RETRY_MS, useLiveState } from '../../lib/use-live-state';

export const PREDICTION_CONNECT_FAILED = 'Unable to connect kick prediction sync. Please refresh.';

/** The overlay's bundle carries no schemas (see hubRef). */
const hub = hubRef<typeof predictionHub>('/KickPrediction');

export function usePrediction() {
  const live = useLiveState({
    hub,
    query: {},
    stateEvent: 'ReceiveState',
    fetchState: (connection) => connection.call('GetState'),
    retryAfterGivingUpMs: UNATTENDED_RETRY_MS,
    onConnectFailed: () => toast.error(PREDICTION_CONNECT_FAILED, { toastId: 'prediction-sync' }),
  });
  return live;
}
