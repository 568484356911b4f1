/**
 * The live prediction for the overlay, on the shared live-state hook: the public `/KickPrediction`
 * hub, `GetState` after every (re)connect, the newest `ReceiveState` kept (the server already
 * coalesces bet updates to a few a second), and the spec's toast when it cannot connect.
 */
import { useEffect } from 'react';
import { toast } from 'react-toastify';
import type { predictionHub } from '@kickback/common/hubs/prediction';
import { hubRef } from '../../lib/hub';
import { useLiveState } from '../../lib/use-live-state';

export const PREDICTION_CONNECT_FAILED = 'Unable to connect kick prediction sync. Please refresh.';

/** An OBS source runs unattended: after the spec's schedule gives up, try again this often. */
const RETRY_AFTER_GIVING_UP_MS = 30_000;

/** The overlay's bundle carries no schemas (see hubRef). */
const hub = hubRef<typeof predictionHub>('/KickPrediction');

export function usePrediction() {
  const live = useLiveState({
    hub,
    query: {},
    stateEvent: 'ReceiveState',
    fetchState: (connection) => connection.call('GetState'),
    onConnectFailed: () => toast.error(PREDICTION_CONNECT_FAILED, { toastId: 'prediction-sync' }),
  });
  const { view, retry } = live;
  useEffect(() => {
    if (view !== 'failed' && view !== 'lost') return;
    const id = setTimeout(retry, RETRY_AFTER_GIVING_UP_MS);
    return () => clearTimeout(id);
  }, [view, retry]);
  return live;
}
