/** Winner confetti for status 4 (bundled canvas-confetti; off for people who prefer less motion). */
import confetti from 'canvas-confetti';

const colours = ['#53fc18', '#f5c542', '#ffffff', '#ff4d6d', '#4dd2ff'];

export function celebrate(sides: Array<1 | 2>): void {
  for (const side of sides) {
    const x = sides.length === 2 ? (side === 1 ? 0.25 : 0.75) : side === 1 ? 0.3 : 0.7;
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
