/**
 * Sounds of the live games (Split or Steal plays them on entering status 3 and 4,
 * docs/product.md#live-states-and-transitions): short files the project synthesised itself
 * (scripts/make-sounds.mjs). Browsers may refuse to play before the viewer interacted with the
 * page; OBS browser sources play them. A viewer can mute them.
 */
export type SoundName = 'choose' | 'reveal';

const MUTE_KEY = 'kb-sound-muted';

export function isMuted(): boolean {
  try {
    return window.localStorage.getItem(MUTE_KEY) === '1';
  } catch {
    return false;
  }
}

export function setMuted(muted: boolean): void {
  try {
    window.localStorage.setItem(MUTE_KEY, muted ? '1' : '0');
  } catch {
    // storage unavailable: the toggle lasts for this page only
  }
}

export function playSound(name: SoundName): void {
  if (isMuted() || typeof Audio === 'undefined') return;
  const audio = new Audio(`/sounds/${name}.wav`);
  audio.volume = 0.8;
  audio.play().catch(() => undefined);
}
