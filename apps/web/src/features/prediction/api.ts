/**
 * The admin calls of predictions as server state: the list is a query; open, lock, resolve, cancel
 * and hide are mutations that invalidate it, so the past predictions refetch by themselves.
 */
import { predictionEndpoints } from '@kickback/common/http/prediction';
import { useEndpointMutation, useEndpointQuery } from '../../lib/query';

const changes = [predictionEndpoints.list] as const;

export const usePredictionList = () => useEndpointQuery(predictionEndpoints.list);

export const useOpenPrediction = () => useEndpointMutation(predictionEndpoints.open, { invalidates: changes });

export type PredictionAction = 'lock' | 'cancel' | 'hide';

export function usePredictionActions() {
  const lock = useEndpointMutation(predictionEndpoints.lock, { invalidates: changes });
  const cancel = useEndpointMutation(predictionEndpoints.cancel, { invalidates: changes });
  const hide = useEndpointMutation(predictionEndpoints.hide, { invalidates: changes });
  const resolve = useEndpointMutation(predictionEndpoints.resolve, { invalidates: changes });
  const actions = { lock, cancel, hide };
  return {
    act: (id: string, action: PredictionAction) => actions[action].mutateAsync({ params: { predictionId: id } }),
    resolve: (id: string, answerId: number) =>
      resolve.mutateAsync({ params: { predictionId: id }, body: { answerId } }),
  };
}
