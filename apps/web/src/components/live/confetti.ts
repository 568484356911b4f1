/** Winner confetti for a live game's result (bundled canvas-confetti; off for people who prefer less motion). */
import confetti from 'canvas-confetti';

const colours = ['#53fc18', '#f5c542', '#ffffff', '#ff4d6d', '#4dd2ff'];

/** One burst per winner, from each horizontal position (0 left … 1 right) of the stage. */
export function celebrate(positions: number[] = [0.5]): void {
  for (const x of positions) {
    void confetti({
      particleCount: 140,
      spread: 80,
      startVelocity: 45,
      origin: { x, y: 0.6 },
      colors: colours,
      disableForReducedMotion: true,
      zIndex: 1100,
    });
  }
}

/** Where each side's burst starts on a two-sided stage (Split or Steal's two seats). */
export function sidePositions(sides: Array<1 | 2>): number[] {
  return sides.map((side) => (sides.length === 2 ? (side === 1 ? 0.25 : 0.75) : side === 1 ? 0.3 : 0.7));
}
