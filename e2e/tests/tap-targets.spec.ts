/**
 * Tap targets on a phone (390 px): every visible link, button and form control on the main pages is
 * at least 48×48 px, or has no other target within a 48×48 px finger centred on it (Lighthouse's
 * tap-target rule; its newer accessibility audit `target-size` asks only 24 px).
 */
import { expect, test } from './fixtures';

const pages = ['/', '/store', '/leaderboard'];
const PHONE = { width: 390, height: 844 };
const FINGER = 48;

for (const url of pages) {
  test(`${url} at 390 px: every tap target is 48×48 px or spaced from the others`, async ({ page }) => {
    await page.setViewportSize(PHONE);
    await page.goto(url);
    await page.waitForLoadState('networkidle');
    const crowded = await page.evaluate((finger) => {
      const selector = 'a[href], button, input:not([type="hidden"]), select, textarea, [role="button"], [tabindex="0"]';
      const targets = Array.from(document.querySelectorAll<HTMLElement>(selector))
        .map((el) => ({ el, r: el.getBoundingClientRect() }))
        .filter(({ el, r }) => {
          if (r.width <= 1 || r.height <= 1) return false; // visually hidden until focused (the skip link)
          const style = getComputedStyle(el);
          return style.visibility !== 'hidden' && style.pointerEvents !== 'none' && !el.closest('[aria-hidden="true"]');
        })
        // A target inside another (an icon in a button) is the same target.
        .filter(({ el }, _i, all) => !all.some((o) => o.el !== el && o.el.contains(el)));
      const name = (el: HTMLElement) =>
        `${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 30)}"`;
      const found: string[] = [];
      for (const { el, r } of targets) {
        if (r.width >= finger && r.height >= finger) continue;
        const cx = r.left + r.width / 2;
        const cy = r.top + r.height / 2;
        const box = { left: cx - finger / 2, right: cx + finger / 2, top: cy - finger / 2, bottom: cy + finger / 2 };
        const near = targets.find(
          (o) =>
            o.el !== el && o.r.left < box.right && o.r.right > box.left && o.r.top < box.bottom && o.r.bottom > box.top,
        );
        if (near) {
          found.push(`${name(el)} ${Math.round(r.width)}×${Math.round(r.height)} next to ${name(near.el)}`);
        }
      }
      return found;
    }, FINGER);
    expect(crowded, crowded.join('\n')).toEqual([]);
  });
}
