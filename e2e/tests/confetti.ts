/** Checks of the winner confetti: it really draws, and the page's security policy refuses nothing. */
import { expect, type Page } from '@playwright/test';

/** Collects the page's Content-Security-Policy refusals (console errors and violation events). */
export function watchCsp(page: Page): string[] {
  const refusals: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy|violates/i.test(m.text())) refusals.push(m.text());
  });
  page.on('pageerror', (e) => {
    if (/Content Security Policy|violates/i.test(e.message)) refusals.push(e.message);
  });
  return refusals;
}

/** How many painted pixels the page's canvases hold right now (a canvas handed to a worker counts 0). */
function paintedPixels(page: Page): Promise<number> {
  return page.evaluate(() => {
    let painted = 0;
    for (const canvas of Array.from(document.querySelectorAll('canvas'))) {
      let context: CanvasRenderingContext2D | null = null;
      try {
        context = canvas.getContext('2d');
      } catch {
        continue; // transferred to an OffscreenCanvas: nothing this page can see
      }
      if (!context || canvas.width === 0 || canvas.height === 0) continue;
      const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
      for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) painted++;
    }
    return painted;
  });
}

/** The confetti is on screen: some canvas holds painted pixels, and no policy refusal was logged. */
export async function expectConfettiDrawn(page: Page, refusals: string[]) {
  await expect
    .poll(() => paintedPixels(page), { message: 'confetti pixels', intervals: [50], timeout: 5000 })
    .toBeGreaterThan(500);
  expect(refusals).toEqual([]);
}
