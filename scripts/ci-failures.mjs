// What failed in a test run, and why, in a few dozen lines, from the reports the runners write
// beside their list output (test-reports/): Vitest's JSON report and the unhandled errors beside it
// (scripts/vitest-unhandled-reporter.mjs), Playwright's JSON report. `npm test` prints it last when
// a part failed, since a CI page may show only the end of the log and the failure is otherwise
// buried in the middle (docs/conventions.md#test-speed). A failed part whose report names no
// failure (the build broke, a worker crashed) is shown by its log's last lines instead.
// `node scripts/ci-failures.mjs REPORT.json...` prints the digest of the reports named.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { stripVTControlCharacters } from 'node:util';

/** Lines kept of one failure's message, before the place it was thrown. */
const MESSAGE_LINES = 6;
/** Lines kept of all the failures of one part, so that its counts stay on the screen. */
const MAX_REASON_LINES = 60;
/** Paths are shown from the repository's root. */
const root = path.resolve(import.meta.dirname, '..');

const relative = (file) => (file && path.isAbsolute(file) ? path.relative(root, file) : file);
/** A path written in a report made elsewhere (a fixture): shown from its apps/, e2e/, … folder. */
const shown = (file) => relative(file)?.replace(/^(\.\.\/)+(repo\/)?/, '');

/** A failure's message lines (colours stripped, source excerpts and diffs' blank lines left out). */
function messageLines(text) {
  return stripVTControlCharacters(text)
    .split('\n')
    .filter((l) => l.trim() !== '' && !/^\s*at /.test(l) && !/^\s*>?\s*\d*\s?\|/.test(l))
    .slice(0, MESSAGE_LINES)
    .map((l) => `    ${l.trim()}`);
}

/** The first stack frame in the project's own code (not node_modules, not Node's internals). */
function place(stack) {
  for (const line of stripVTControlCharacters(stack ?? '').split('\n')) {
    const at = /^\s*at (?:.*\()?(?:file:\/\/)?(\/[^():]+):(\d+):(\d+)\)?$/.exec(line);
    if (at && !at[1].includes('/node_modules/')) return `    at ${shown(at[1])}:${at[2]}:${at[3]}`;
  }
  return null;
}

/** The failures of a Vitest JSON report (and of its unhandled errors): counts first, then each one. */
function vitestFailures(report, unhandled = []) {
  const files = report.testResults ?? [];
  const failedFiles = files.filter((f) => f.status === 'failed').length;
  const counts = [
    `  test files: ${failedFiles} failed of ${files.length}`,
    `  tests: ${report.numFailedTests} failed, ${report.numPassedTests} passed, ${report.numPendingTests} skipped` +
      (unhandled.length ? `; ${unhandled.length} unhandled error${unhandled.length > 1 ? 's' : ''}` : ''),
  ];
  const reasons = [];
  for (const file of files) {
    const name = shown(file.name);
    const failed = file.assertionResults.filter((t) => t.status === 'failed');
    // A file that failed with no failed test: it did not load, or a hook of it threw.
    if (file.status === 'failed' && !failed.length) reasons.push(`FAIL ${name}`, ...messageLines(file.message));
    for (const t of failed) {
      const stack = t.failureMessages[0] ?? '';
      // Vitest's report keeps a timeout's stack (placed at the test) but not its message.
      const why = stack.startsWith('Error: STACK_TRACE_ERROR')
        ? [`    Timed out after ${(t.duration / 1000).toFixed(1)} s (docs/conventions.md#timeouts)`]
        : messageLines(stack);
      reasons.push(`FAIL ${name} > ${[...t.ancestorTitles, t.title].join(' > ')}`, ...why);
      const at = place(stack);
      if (at) reasons.push(at);
    }
  }
  for (const e of unhandled) {
    reasons.push(`UNHANDLED ${e.file ? `(while ${shown(e.file)} ran) ` : ''}${e.name}: ${e.message}`);
    const at = place(e.stack);
    if (at) reasons.push(at);
  }
  return failedFiles || report.numFailedTests || unhandled.length ? { counts, reasons } : null;
}

/** Every test of a Playwright JSON report, with its file, from its nested suites. */
function* playwrightTests(suites, dir) {
  for (const suite of suites ?? []) {
    for (const spec of suite.specs ?? []) {
      const file = shown(path.join(dir, spec.file));
      for (const test of spec.tests) yield { title: `${file}:${spec.line}:${spec.column} › ${spec.title}`, test };
    }
    yield* playwrightTests(suite.suites, dir);
  }
}

/** The failures of a Playwright JSON report: counts with the failed and flaky journeys, then why each failed. */
function playwrightFailures(report) {
  const { unexpected = 0, flaky = 0, expected = 0, skipped = 0 } = report.stats ?? {};
  const failed = [];
  const flakes = [];
  for (const { title, test } of playwrightTests(report.suites, report.config?.rootDir ?? '')) {
    const name = test.projectName ? `[${test.projectName}] › ${title}` : title;
    if (test.status === 'unexpected') failed.push({ name, test });
    else if (test.status === 'flaky') flakes.push({ name, test });
  }
  const errors = report.errors ?? [];
  if (!failed.length && !flakes.length && !errors.length && !unexpected) return null;
  const counts = [
    `  journeys: ${unexpected} failed, ${flaky} flaky, ${expected} passed, ${skipped} skipped` +
      (errors.length ? `; ${errors.length} error${errors.length > 1 ? 's' : ''} outside them` : ''),
    ...failed.map((f) => `    failed: ${f.name}`),
    ...flakes.map((f) => `    flaky: ${f.name}`),
  ];
  const reasons = [];
  for (const e of errors) reasons.push('ERROR (outside the journeys)', ...messageLines(e.message ?? e.stack ?? ''));
  // Each failed or flaky journey's first failed attempt: a retry usually repeats it.
  for (const { name, test } of [...failed, ...flakes]) {
    const result = test.results.find((r) => r.status !== 'passed' && r.status !== 'skipped');
    reasons.push(`${test.status === 'flaky' ? 'FLAKY' : 'FAIL'} ${name}`);
    if (!result) continue;
    reasons.push(...messageLines(result.error?.message ?? `${result.status}`));
    const at = result.error?.location;
    if (at) reasons.push(`    at ${shown(at.file)}:${at.line}:${at.column}`);
  }
  return { counts, reasons };
}

/**
 * What a report names as failed: `{ counts, reasons }`, or null when it names nothing.
 * @param {object} report Vitest's or Playwright's JSON report (told apart by their shape)
 * @param {object[]} [unhandled] with Vitest's, the unhandled errors written beside it
 */
export function failures(report, unhandled) {
  if (Array.isArray(report.testResults)) return vitestFailures(report, unhandled);
  if (report.stats && Array.isArray(report.suites)) return playwrightFailures(report);
  return null;
}

/** A report file read, or null when it is missing or half-written (the run died before it). */
export function readReport(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/**
 * The digest of the failed parts of a run. Each part names its report (a parsed report or null)
 * and its log: a part whose report names no failure shows the log's last `tail` lines instead.
 * @param {{ name: string, exit: number, report: object | null, unhandled?: object[], log: string }[]} parts
 */
export function digest(parts, tail = 25) {
  const out = [];
  for (const part of parts) {
    if (part.exit === 0) continue;
    const found = part.report ? failures(part.report, part.unhandled) : null;
    if (!found) {
      const why = part.report ? 'its report names no failure' : 'no report';
      out.push(`-- ${part.name} (exit ${part.exit}; ${why}: its last lines)`);
      out.push(...stripVTControlCharacters(part.log).trimEnd().split('\n').slice(-tail), '');
      continue;
    }
    const reasons =
      found.reasons.length > MAX_REASON_LINES
        ? [
            ...found.reasons.slice(0, MAX_REASON_LINES),
            `… and ${found.reasons.length - MAX_REASON_LINES} more lines (the whole log is above)`,
          ]
        : found.reasons;
    out.push(`-- ${part.name} (exit ${part.exit})`, ...found.counts, '', ...reasons, '');
  }
  return out.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const parts = process.argv.slice(2).map((file) => {
    const report = readReport(file);
    const beside = file.replace(/\.json$/, '-unhandled.json');
    const unhandled = beside !== file ? (readReport(beside)?.unhandledErrors ?? []) : [];
    return { name: file, exit: 1, report, unhandled, log: report ? '' : `(${file}: missing or unreadable)` };
  });
  process.stdout.write(`${digest(parts)}\n`);
}
