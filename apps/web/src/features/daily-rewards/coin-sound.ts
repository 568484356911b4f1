/**
 * The coin sound of a claim (docs/product.md#site-states-and-transitions): a short file the project synthesised itself
 * (scripts/make-sounds.mjs). Honours the site-wide mute the game pages set.
 */
const MUTE_KEY = 'kb-sound-muted';

export function playCoin(): void {
  try {
    if (window.localStorage.getItem(MUTE_KEY) === '1') return;
  } catch {
    // storage unavailable: play
  }
  if (typeof Audio === 'undefined') return;
  const audio = new Audio('/sounds/coin.wav');
  audio.volume = 0.7;
  audio.play().catch(() => undefined);
}
