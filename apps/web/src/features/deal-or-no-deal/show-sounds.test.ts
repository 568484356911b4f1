import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setMuted } from '../../components/live/sounds';
import { nowPlaying, playShowSound, stopShowSounds, stopThinkingMusic, THINKING_VOLUME } from './show-sounds';

/** A stand-in for the browser's Audio: records what was played and paused. */
class FakeAudio {
  loop = false;
  volume = 1;
  paused = true;
  private listeners: Array<() => void> = [];
  constructor(readonly src: string) {}
  play() {
    this.paused = false;
    return Promise.resolve();
  }
  pause() {
    this.paused = true;
  }
  addEventListener(_: 'ended', fn: () => void) {
    this.listeners.push(fn);
  }
}

beforeEach(() => {
  vi.stubGlobal('Audio', FakeAudio);
  setMuted(false);
});
afterEach(() => {
  stopShowSounds();
  vi.unstubAllGlobals();
});

describe('the show sounds', () => {
  it('loops the thinking music at volume 0.4, once however often it is asked for', () => {
    playShowSound('ThinkingMusic');
    playShowSound('ThinkingMusic');
    expect(nowPlaying()).toEqual([{ src: '/sounds/thinking-music.wav', loop: true, volume: THINKING_VOLUME }]);
    expect(THINKING_VOLUME).toBe(0.4);
  });

  it('plays the other sounds once, and StopSound stops everything', () => {
    playShowSound('BankerCalling');
    playShowSound('ThinkingMusic');
    expect(nowPlaying().map((s) => [s.src, s.loop])).toEqual([
      ['/sounds/banker-calling.wav', false],
      ['/sounds/thinking-music.wav', true],
    ]);
    stopShowSounds();
    expect(nowPlaying()).toEqual([]);
  });

  it('stops only the thinking music when the offer closes, letting a case sound ring out', () => {
    playShowSound('ThinkingMusic');
    playShowSound('SmallCaseOpened');
    stopThinkingMusic();
    expect(nowPlaying().map((s) => s.src)).toEqual(['/sounds/small-case-opened.wav']);
  });

  it('plays nothing when muted', () => {
    setMuted(true);
    playShowSound('DealMusic');
    expect(nowPlaying()).toEqual([]);
  });
});
