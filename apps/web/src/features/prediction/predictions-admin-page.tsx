/**
 * /admin/predictions (Admin dropdown; not in the contract, docs/features/predictions.md#rules): open a
 * prediction, follow its bets live, lock, resolve, cancel or hide it, copy the overlay URL, and see
 * past predictions. The stream's live state (Kick's last word on it) is shown above.
 */
import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { predictionEndpoints } from '@kickback/common/http/prediction';
import { endpointKey } from '../../lib/query';
import { usePredictionList } from './api';
import { StreamState } from './stream-state';
import { CurrentPrediction } from './current-prediction';
import { OpenPredictionForm } from './open-prediction-form';
import { OverlayLink } from './overlay-link';
import { PastPredictions } from './past-predictions';
import { usePrediction } from './use-prediction';
import './predictions-admin.css';

export default function PredictionsAdminPage() {
  const { state } = usePrediction();
  const client = useQueryClient();
  const list = usePredictionList().data ?? [];
  // The list follows the live state's transitions (not every bet), also those made elsewhere.
  const transition = state ? `${state.id}:${state.state}` : null;
  useEffect(() => {
    if (transition) void client.invalidateQueries({ queryKey: endpointKey(predictionEndpoints.list) });
  }, [client, transition]);

  const live = state !== null && state.id !== 'none';
  const open = live && (state.state === 1 || state.state === 3);
  return (
    <section className="container-xl py-4">
      <h1 className="h3 mb-1">Predictions</h1>
      <p className="text-body-secondary mb-2">
        Chatters bet points with <code>!bet [OPTION] [POINTS]</code>. Resolving pays the pool to the winning answer in
        proportion to stakes; cancelling refunds everyone.
      </p>
      <div className="mb-4">
        <StreamState />
      </div>
      <div className="row g-4">
        <div className="col-lg-7">
          {live && <CurrentPrediction state={state} />}
          <OpenPredictionForm disabled={open} />
        </div>
        <div className="col-lg-5">
          <OverlayLink />
        </div>
      </div>
      <h2 className="h5 mt-5">Past predictions</h2>
      <PastPredictions list={list} />
    </section>
  );
}
