/** Challenge calls (spec part 1 §7). */
import {
  allChallengesResponse,
  challenge,
  userChallengesResponse,
  type Challenge,
  type CreateChallengeBody,
  type UpdateChallengeBody,
} from '@kickback/common/http/challenges';
import { api } from '../../lib/api';

export async function loadPublicChallenges(signal?: AbortSignal): Promise<Challenge[]> {
  const res = await api('/api/Challenge/getuserchallenges', {
    schema: userChallengesResponse,
    silent: true,
    ...(signal ? { signal } : {}),
  });
  return res.challenges;
}

export const loadAllChallenges = () => api('/api/Challenge/getall', { schema: allChallengesResponse });

export const createChallenge = (body: CreateChallengeBody) =>
  api('/api/Challenge/create', { method: 'POST', body, schema: challenge });

export const updateChallenge = (body: UpdateChallengeBody) =>
  api('/api/Challenge/update', { method: 'POST', body, schema: challenge });
