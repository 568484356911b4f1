/** The web app's remembered 18+ confirmation (features/age-gate): localStorage key and value. */
export const AGE_CONFIRMED = { name: 'kb-age-confirmed', value: '1' };

/**
 * A storage state with the 18+ gate already confirmed, so a journey about something else meets
 * the page, not the gate. playwright.config.ts makes it every context's default; the gate's own
 * journey starts from an empty state instead.
 */
export function ageGateAccepted(origin: string) {
  return { cookies: [], origins: [{ origin, localStorage: [AGE_CONFIRMED] }] };
}
