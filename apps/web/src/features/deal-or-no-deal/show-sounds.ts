/**
 * The show's sounds (docs/product.md#live-states-and-transitions): the server names them (PlaySound) and stops them
 * (StopSound); the files are short WAVs the project synthesised (scripts/make-sounds.mjs).
 * ThinkingMusic loops at volume 0.4 while the bank's offer shows; the rest play once. The mute
 * switch is the live games' one.
 */
import type { Sound } from '@kickback/common/games/deal-or-no-deal';
import { isMuted } from '../../components/live/sounds';

const files: Record<Sound, string> = {
  BigCaseOpened: 'big-case-opened',
  SmallCaseOpened: 'small-case-opened',
  BankerCalling: 'banker-calling',
  DealMusic: 'deal-music',
  ThemeMusic: 'theme-music',
  ThinkingMusic: 'thinking-music',
};

/** The volume of the looped thinking music while the offer shows (the contract's 0.4). */
export const THINKING_VOLUME = 0.4;

const playing = new Set<HTMLAudioElement>();

export function playShowSound(name: Sound): void {
  if (isMuted() || typeof Audio === 'undefined') return;
  const audio = new Audio(`/sounds/${files[name]}.wav`);
  if (name === 'ThinkingMusic') {
    // One thinking loop at a time, whatever the server repeats.
    for (const a of playing) if (a.loop) stop(a);
    audio.loop = true;
    audio.volume = THINKING_VOLUME;
  } else audio.volume = 0.8;
  playing.add(audio);
  audio.addEventListener('ended', () => playing.delete(audio));
  audio.play().catch(() => playing.delete(audio)); // a browser may refuse before the first click
}

function stop(audio: HTMLAudioElement): void {
  audio.pause();
  playing.delete(audio);
}

/** StopSound: everything stops (the thinking music first of all). */
export function stopShowSounds(): void {
  for (const a of [...playing]) stop(a);
}

/** The thinking music belongs to the offer: it never outlives status 4, whatever was missed. */
export function stopThinkingMusic(): void {
  for (const a of [...playing]) if (a.loop) stop(a);
}

/** What plays now (for tests and the page's music indicator). */
export function nowPlaying(): Array<{ src: string; loop: boolean; volume: number }> {
  return [...playing].map((a) => ({ src: a.src, loop: a.loop, volume: a.volume }));
}
