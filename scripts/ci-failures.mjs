// `node scripts/ci-failures.mjs NAME=LOG...`: what failed in a CI run, and why, in a few dozen lines.
// `.ci/run` prints it last when a part failed, since a CI page may show only the end of the log
// and the failure is otherwise buried in the middle (docs/conventions.md#test-speed). It reads
// the logs of Vitest's default reporter and Playwright's list reporter.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { stripVTControlCharacters } from 'node:util';

/** Lines kept of one failure's account after its title: the error and where it was thrown. */
const LINES_PER_FAILURE = 8;
/** Lines kept of all the failures of one log, so that the counts stay on the screen. */
const MAX_REASON_LINES = 60;

/** Vitest's section heads ("⎯⎯ Failed Tests 2 ⎯⎯", "⎯⎯ Uncaught Exception ⎯⎯") and their ends. */
const vitestHead = /^\s*⎯+ (.+?) ⎯+\s*$/;
const vitestEnd = /^\s*⎯+(\[\d+\/\d+\])?⎯*\s*$/;
/** One failure: Vitest's "FAIL  server  src/x.test.ts > it", Playwright's "1) [chromium] › x.spec.ts:2:1 › it"
 * (the project's name only when the config names one). */
const failureTitle = /^\s*(FAIL\s|\d+\) (\[[\w -]+\] › )?\S+:\d+:\d+ › )/;
/** Where Playwright's account of a failure turns to its attachments or repeats itself for a retry. */
const playwrightEnd = /^\s*(Error Context:|Retry #\d+|attachment #\d+)/;
/** A source excerpt ("  3| it(…", "> 3 | it(…", "   |   ^"): the place is already named by a stack line. */
const codeFrame = /^\s*>?\s*\d*\s?\|/;
/** The counts at the end of a run (Vitest's, Playwright's), and Playwright's list of journeys under its own. */
const vitestCount = /^\s*(Test Files|Tests|Errors)\s\s.*\b(failed|errors?)\b/;
const playwrightCount = /^\s*\d+ (failed|flaky|interrupted|did not run)\b/;
const countedJourney = /^\s+(\[[\w -]+\] › )?\S+:\d+:\d+ › /;

const tidy = (line) => line.replace(/\s*─+\s*$/, '').trimEnd();

/**
 * What one log says failed: its counts first (which tests), then each failure's first lines (why).
 * Empty when the log names no failure.
 * @param {string} text
 * @returns {string[]}
 */
export function failures(text) {
  const summary = [];
  const reasons = [];
  let kept = 0; // lines still to keep of the current failure
  let underCount = false; // in Playwright's list of the journeys a count names
  for (const raw of stripVTControlCharacters(text).split('\n')) {
    const line = tidy(raw);
    if (vitestCount.test(line) || playwrightCount.test(line)) {
      summary.push(line);
      underCount = playwrightCount.test(line);
      kept = 0;
    } else if (underCount && countedJourney.test(line)) {
      summary.push(line);
    } else if (vitestHead.test(line)) {
      underCount = false;
      reasons.push(`[${vitestHead.exec(line)[1]}]`);
      kept = LINES_PER_FAILURE;
    } else if (failureTitle.test(line)) {
      underCount = false;
      reasons.push(line.trim());
      kept = LINES_PER_FAILURE;
    } else {
      underCount = false;
      if (kept === 0 || line.trim() === '' || codeFrame.test(line)) continue;
      if (vitestEnd.test(line) || playwrightEnd.test(line)) kept = 0;
      else {
        reasons.push(`    ${line.trim()}`);
        kept -= 1;
      }
    }
  }
  if (!summary.length && !reasons.length) return [];
  const shown =
    reasons.length > MAX_REASON_LINES
      ? [
          ...reasons.slice(0, MAX_REASON_LINES),
          `… and ${reasons.length - MAX_REASON_LINES} more lines (the whole log is above)`,
        ]
      : reasons;
  return [...summary, ...(shown.length ? ['', ...shown] : [])];
}

/**
 * The digest of several logs; a log naming no failure is left out, and when none names one (a
 * build or an install failed), each log's last lines are shown instead.
 * @param {{ name: string, text: string }[]} logs
 * @param {number} tail
 */
export function digest(logs, tail = 25) {
  const parts = logs.map(({ name, text }) => ({ name, found: failures(text), text }));
  const named = parts.filter((p) => p.found.length);
  if (named.length) return named.flatMap((p) => [`-- ${p.name}`, ...p.found, '']).join('\n');
  return parts
    .flatMap((p) => [
      `-- ${p.name} (no test named; its last lines)`,
      ...stripVTControlCharacters(p.text).trimEnd().split('\n').slice(-tail),
      '',
    ])
    .join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const logs = process.argv.slice(2).map((arg) => {
    const at = arg.indexOf('=');
    const [name, file] = at < 0 ? [arg, arg] : [arg.slice(0, at), arg.slice(at + 1)];
    try {
      return { name, text: readFileSync(file, 'utf8') };
    } catch (error) {
      return { name, text: `(unreadable: ${error.message})` };
    }
  });
  process.stdout.write(`${digest(logs)}\n`);
}
