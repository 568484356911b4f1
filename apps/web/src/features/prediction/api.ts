/** The admin calls of predictions (open, lock, resolve, cancel, hide, list). */
import { predictionEndpoints, type OpenPredictionBody } from '@kickback/common/http/prediction';
import { api } from '../../lib/api';

export const listPredictions = (signal?: AbortSignal) => api(predictionEndpoints.list, signal ? { signal } : {});

export const openPrediction = (body: OpenPredictionBody) => api(predictionEndpoints.open, { body });

export type PredictionAction = 'lock' | 'cancel' | 'hide';

export const actOnPrediction = (id: string, action: PredictionAction) =>
  api(predictionEndpoints[action], { params: { predictionId: id } });

export const resolvePrediction = (id: string, answerId: number) =>
  api(predictionEndpoints.resolve, { params: { predictionId: id }, body: { answerId } });
