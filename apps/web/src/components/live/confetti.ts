/**
 * Winner confetti for a live game's result (bundled canvas-confetti; off for people who prefer less
 * motion). It draws on the main thread on a canvas of our own: the library's default instance
 * renders in a worker made from a `blob:` URL, which the site's script policy (script-src 'self')
 * refuses, and the library then draws nothing without saying so (docs/features/live-pages.md).
 * The library loads on the first burst, not before the page draws
 * (docs/benchmarks.md#first-load-budget-per-page).
 */
import type confetti from 'canvas-confetti';

const colours = ['#53fc18', '#f5c542', '#ffffff', '#ff4d6d', '#4dd2ff'];

let cannon: confetti.CreateTypes | null = null;

/** The page-wide confetti layer: created on the first burst, kept for the next ones. */
async function fire(): Promise<confetti.CreateTypes> {
  if (cannon) return cannon;
  const { default: library } = await import('canvas-confetti');
  if (cannon) return cannon;
  const canvas = document.createElement('canvas');
  canvas.className = 'kb-confetti';
  canvas.setAttribute('aria-hidden', 'true');
  canvas.dataset.testid = 'confetti';
  Object.assign(canvas.style, {
    position: 'fixed',
    inset: '0',
    width: '100%',
    height: '100%',
    pointerEvents: 'none',
    zIndex: '1100',
  });
  document.body.appendChild(canvas);
  cannon = library.create(canvas, { useWorker: false, resize: true, disableForReducedMotion: true });
  return cannon;
}

/** One burst per winner, from each horizontal position (0 left … 1 right) of the stage. */
export function celebrate(positions: number[] = [0.5]): void {
  void fire().then((shoot) => {
    for (const x of positions) {
      void shoot({
        particleCount: 140,
        spread: 80,
        startVelocity: 45,
        origin: { x, y: 0.6 },
        colors: colours,
      });
    }
  });
}

/** Where each side's burst starts on a two-sided stage (Split or Steal's two seats). */
export function sidePositions(sides: Array<1 | 2>): number[] {
  return sides.map((side) => (sides.length === 2 ? (side === 1 ? 0.25 : 0.75) : side === 1 ? 0.3 : 0.7));
}
