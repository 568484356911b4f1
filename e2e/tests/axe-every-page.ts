/**
 * axe-core on every page a journey visits (docs/features/accessibility-and-feedback.md). Each page
 * of each browser context the test opens is watched; the first time its main frame reaches a path
 * (pathname) in a journey, the page is checked once it has settled: loaded, nothing busy, no toast
 * sliding, no finite animation or transition running and the DOM quiet for a moment. A check cut
 * short by the journey moving on is retried on its next visit; a path never checked that way is
 * opened once more at the end of the journey. Violations fail the journey at its end, by page.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from '@playwright/test';

/** Landmark rules axe rates moderate that the site keeps anyway: one main, one h1, content in landmarks. */
const STRUCTURE_RULES = new Set(['page-has-heading-one', 'landmark-one-main', 'region']);

/** One axe run at a time per page: axe refuses a second run (the fixture's, a journey's) meanwhile. */
const runs = new WeakMap<Page, Promise<unknown>>();

/** Looks at a page before one of its elements is judged as it was while it changed. */
const LOOKS = 3;

/** One axe run: its violations as "rule: help (targets)", and whether a faulted element changed meanwhile. */
interface Look {
  violations: string[];
  moved: boolean;
}

/**
 * Starts noting, in the page, the elements that change while axe looks: an attribute set (a class,
 * `disabled`), inserted, or with a transition or animation running (one already running, one
 * starting meanwhile). Text changes (a live counter) are not noted: they change no colour.
 */
function startNoting() {
  const changed = new Set<Element>();
  const note = (node: unknown) => {
    if (node instanceof Element) changed.add(node);
  };
  const noteRunning = () => {
    for (const a of document.getAnimations()) {
      const finite = Number.isFinite(a.effect?.getComputedTiming().endTime ?? 0);
      if (a.playState === 'running' && finite && a.effect instanceof KeyframeEffect) note(a.effect.target);
    }
  };
  const observer = new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === 'attributes') note(r.target);
      else r.addedNodes.forEach(note);
    }
  });
  const onStart = (event: Event) => note(event.target);
  noteRunning();
  observer.observe(document.documentElement, { subtree: true, childList: true, attributes: true });
  document.addEventListener('transitionrun', onStart, true);
  document.addEventListener('animationstart', onStart, true);
  (window as unknown as { kbMoved: (selectors: string[]) => boolean }).kbMoved = (selectors) => {
    observer.disconnect();
    document.removeEventListener('transitionrun', onStart, true);
    document.removeEventListener('animationstart', onStart, true);
    noteRunning();
    // An element moved when it, or an element it is drawn in, changed (a parent's class, say).
    const find = (selector: string) => {
      try {
        return document.querySelector(selector);
      } catch {
        return null; // a path into a frame or a shadow root: not an element of this document
      }
    };
    return selectors.some((selector) => {
      for (let el = find(selector); el; el = el.parentElement) if (changed.has(el)) return true;
      return false;
    });
  };
}

/** One axe run, and whether an element it faults changed during the run. */
async function look(page: Page): Promise<Look> {
  await page.evaluate(startNoting);
  // Legacy mode runs in the page itself: the default opens a blank page in the context for a moment,
  // which a journey waiting for its own new page (a popup, a new tab) would take for that page.
  const results = await new AxeBuilder({ page }).exclude('body > canvas').setLegacyMode(true).analyze();
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical' || STRUCTURE_RULES.has(v.id))
    .map((v) => ({ rule: `${v.id}: ${v.help}`, targets: v.nodes.map((n) => n.target.join(' ')) }));
  const moved = await page.evaluate(
    (selectors) => (window as unknown as { kbMoved: (s: string[]) => boolean }).kbMoved(selectors),
    serious.flatMap((v) => v.targets),
  );
  return { violations: serious.map((v) => `${v.rule} (${v.targets.join(', ')})`), moved };
}

/**
 * Violations that matter: serious or critical, and the structure rules, as "rule: help (targets)".
 * The winner confetti's canvas is left out: a decorative drawing the library adds to the body for a
 * few seconds, hidden from nobody and outside every landmark by its design.
 *
 * A violation on an element that changed while axe looked (a button fading from its disabled colours
 * as the journey clicks on) is a colour caught mid-way: the page is looked at again once settled, up
 * to LOOKS times. An element that never holds still that long is judged as it was.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  let found: Look = { violations: [], moved: false };
  for (let n = 1; n <= LOOKS; n += 1) {
    if (n > 1) await waitForSettled(page).catch(() => undefined);
    const before = runs.get(page) ?? Promise.resolve();
    const run = before.catch(() => undefined).then(() => look(page));
    runs.set(page, run);
    found = await run;
    if (!found.moved) break;
  }
  return found.violations;
}

/** Waits until the page has settled (see the module comment); throws after `timeout`. */
export async function waitForSettled(page: Page, timeout = 8_000): Promise<void> {
  const deadline = Date.now() + timeout;
  await page.waitForLoadState('load', { timeout });
  for (;;) {
    await page.waitForFunction(
      () =>
        document.readyState === 'complete' &&
        !document.querySelector('[aria-busy="true"], [class*="Toastify__bounce-"]') &&
        !document
          .getAnimations()
          .some((a) => a.playState === 'running' && Number.isFinite(a.effect?.getComputedTiming().endTime ?? 0)),
      undefined,
      { timeout: Math.max(1, deadline - Date.now()), polling: 100 },
    );
    // Quiet: no DOM change for 250 ms (live counters tick once a second, so this is reached).
    const quiet = await page.evaluate(
      () =>
        new Promise<boolean>((resolve) => {
          const observer = new MutationObserver(() => {
            observer.disconnect();
            clearTimeout(timer);
            resolve(false);
          });
          const timer = setTimeout(() => {
            observer.disconnect();
            resolve(true);
          }, 250);
          observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
        }),
    );
    if (quiet) return;
    if (Date.now() > deadline) throw new Error('page never settled');
  }
}

function pathOf(url: string, origin: string): string | null {
  if (!url.startsWith(origin)) return null;
  return new URL(url).pathname;
}

/** Paths never opened again for a check: sign-in and OAuth steps act on a visit. */
const NOT_REVISITED = /^\/(api|auth|oauth2?)(\/|$)/i;

/**
 * Starts watching `browser` (contexts the test opens itself) and `context` (Playwright's own).
 * `finish()` waits for the checks still running, opens once more (in a new page of the same context)
 * each path whose check the journey always cut short, and returns the violations found, by page.
 */
export function watchEveryPage(browser: Browser, context: BrowserContext, origin: string) {
  const checked = new Set<string>(); // checked, or being checked
  const done = new Set<string>();
  const lastSeen = new Map<string, { page: Page; url: string }>();
  const running = new Set<Promise<void>>();
  const found: string[] = [];
  const watchedPages = new WeakSet<Page>();
  let finished = false;

  const check = async (page: Page, path: string) => {
    try {
      await waitForSettled(page).catch(() => undefined);
      if (pathOf(page.url(), origin) !== path) throw new Error('moved on');
      let violations = await seriousViolations(page);
      if (violations.length > 0) {
        // Confirm on a second look so a state caught mid-change is not reported.
        await waitForSettled(page).catch(() => undefined);
        const again = new Set(await seriousViolations(page));
        violations = violations.filter((v) => again.has(v));
      }
      if (pathOf(page.url(), origin) !== path) throw new Error('moved on');
      for (const v of violations) found.push(`${path} — ${v}`);
      done.add(path);
    } catch {
      checked.delete(path);
    }
  };

  const watchPage = (page: Page) => {
    if (watchedPages.has(page)) return;
    watchedPages.add(page);
    page.on('framenavigated', (frame) => {
      if (finished || frame !== page.mainFrame()) return;
      const path = pathOf(frame.url(), origin);
      if (path === null) return;
      lastSeen.set(path, { page, url: frame.url() });
      if (checked.has(path)) return;
      checked.add(path);
      const run = check(page, path).finally(() => running.delete(run));
      running.add(run);
    });
  };
  const watchContext = (ctx: BrowserContext) => {
    ctx.pages().forEach(watchPage);
    ctx.on('page', watchPage);
  };

  watchContext(context);
  const newContext = browser.newContext.bind(browser);
  const newPage = browser.newPage.bind(browser);
  browser.newContext = async (...args: Parameters<Browser['newContext']>) => {
    const ctx = await newContext(...args);
    watchContext(ctx);
    return ctx;
  };
  browser.newPage = async (...args: Parameters<Browser['newPage']>) => {
    const page = await newPage(...args);
    watchPage(page);
    return page;
  };

  const revisit = async (path: string, seen: { page: Page; url: string }) => {
    let page: Page | null = null;
    try {
      page = await seen.page.context().newPage();
      await page.goto(seen.url);
      if (pathOf(page.url(), origin) !== path) return; // sent elsewhere (a guard, a finished flow)
      await waitForSettled(page).catch(() => undefined);
      for (const v of await seriousViolations(page)) found.push(`${path} (opened again) — ${v}`);
    } catch {
      // The journey closed that context: nothing left to check it in.
    } finally {
      await page?.close().catch(() => undefined);
    }
  };

  return {
    async finish(): Promise<string[]> {
      while (running.size > 0) await Promise.all([...running]);
      finished = true;
      Reflect.deleteProperty(browser, 'newContext');
      Reflect.deleteProperty(browser, 'newPage');
      for (const [path, seen] of lastSeen) {
        if (!done.has(path) && !NOT_REVISITED.test(path)) await revisit(path, seen);
      }
      return found;
    },
  };
}
