/** Challenge calls (spec part 1 §7). */
import {
  challengeEndpoints,
  type Challenge,
  type CreateChallengeBody,
  type UpdateChallengeBody,
} from '@kickback/common/http/challenges';
import { api } from '../../lib/api';

export async function loadPublicChallenges(signal?: AbortSignal): Promise<Challenge[]> {
  const res = await api(challengeEndpoints.publicList, {
    silent: true,
    ...(signal ? { signal } : {}),
  });
  return res.challenges;
}

export const loadAllChallenges = () => api(challengeEndpoints.all);

export const createChallenge = (body: CreateChallengeBody) => api(challengeEndpoints.create, { body });

export const updateChallenge = (body: UpdateChallengeBody) => api(challengeEndpoints.update, { body });
