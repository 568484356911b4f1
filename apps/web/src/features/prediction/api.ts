/** The admin calls of predictions (open, lock, resolve, cancel, hide, list). */
import { predictionState } from '@kickback/common/hubs/prediction';
import { predictionList, predictionSummary, type OpenPredictionBody } from '@kickback/common/http/prediction';
import { api } from '../../lib/api';

export const listPredictions = (signal?: AbortSignal) =>
  api('/api/predictions', { schema: predictionList, ...(signal ? { signal } : {}) });

export const openPrediction = (body: OpenPredictionBody) =>
  api('/api/predictions', { method: 'POST', body, schema: predictionSummary });

export type PredictionAction = 'lock' | 'cancel' | 'hide';

export const actOnPrediction = (id: string, action: PredictionAction) =>
  api(`/api/predictions/${id}/${action}`, { method: 'POST', schema: predictionState });

export const resolvePrediction = (id: string, answerId: number) =>
  api(`/api/predictions/${id}/resolve`, { method: 'POST', body: { answerId }, schema: predictionState });
