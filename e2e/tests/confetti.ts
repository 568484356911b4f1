/** Checks of the winner confetti: it really draws, and the page's security policy refuses nothing. */
import { expect, type Page } from '@playwright/test';

/** What the page under watch records (set by the script `watchConfetti` adds to it). */
interface ConfettiWatch {
  __confettiMostPixels?: number;
}

/**
 * Watches `page` from its next document on: collects its Content-Security-Policy refusals (console
 * errors and violation events), returned, and has the page itself sample the confetti canvas
 * (`data-testid="confetti"`) every 100 ms, keeping the most painted pixels seen. A burst lasts a
 * few seconds; sampled by the test's own calls, each a round trip to a browser that a starved
 * machine answers late, it was once missed whole (0 pixels on the viewer's page while the player's
 * page showed the confetti). Call it before the page loads the document that will fire the confetti.
 */
export async function watchConfetti(page: Page): Promise<string[]> {
  const refusals: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy|violates/i.test(m.text())) refusals.push(m.text());
  });
  page.on('pageerror', (e) => {
    if (/Content Security Policy|violates/i.test(e.message)) refusals.push(e.message);
  });
  await page.addInitScript(() => {
    if (window !== window.top) return;
    const watch = window as unknown as ConfettiWatch;
    watch.__confettiMostPixels = 0;
    const sampler = setInterval(() => {
      let painted = 0;
      const canvas = document.querySelector<HTMLCanvasElement>('canvas[data-testid="confetti"]');
      let context: CanvasRenderingContext2D | null = null;
      try {
        context = canvas?.getContext('2d') ?? null;
      } catch {
        // transferred to an OffscreenCanvas: nothing this page can see
      }
      if (canvas && context && canvas.width > 0 && canvas.height > 0) {
        const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
        for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) painted++;
      }
      watch.__confettiMostPixels = Math.max(watch.__confettiMostPixels ?? 0, painted);
      // Enough seen: stop copying a full-window canvas ten times a second.
      if (painted > 500) clearInterval(sampler);
    }, 100);
  });
  return refusals;
}

/** The confetti was on screen: some canvas held painted pixels, and no policy refusal was logged. */
export async function expectConfettiDrawn(page: Page, refusals: string[]) {
  await expect(page.getByTestId('confetti'), 'the confetti canvas (a burst was fired)').toBeAttached();
  await expect
    .poll(() => page.evaluate(() => (window as unknown as ConfettiWatch).__confettiMostPixels ?? 0), {
      message: 'confetti pixels',
    })
    .toBeGreaterThan(500);
  expect(refusals).toEqual([]);
}
