/**
 * Slow one-time work of a test file (migrating the template database, making the chat simulator's
 * RSA key) done in a `beforeAll` with room to spare, so a loaded machine does not push the first
 * test of the file past its timeout: `beforeAll(warmUp, WARM_UP_TIMEOUT)`.
 */
import { simulatorKeyPair } from '../src/integrations/kick/simulator-keys';
import { openTestDatabase } from './database';

export const WARM_UP_TIMEOUT = 120_000;

export async function warmUp(): Promise<void> {
  simulatorKeyPair();
  await (await openTestDatabase()).drop();
}
