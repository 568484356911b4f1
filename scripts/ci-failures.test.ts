import path from 'node:path';
import { expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs script without types
import { digest, readReport } from './ci-failures.mjs';

// Real reports of deliberately failing runs: Vitest's JSON report and the unhandled errors beside
// it (a failing test, one throwing, one timing out, a hook throwing, a file that does not load, a
// timer throwing after its test passed), Playwright's JSON report with one retry (a failing journey, a hanging
// one, a flaky one, a passing one), and Playwright's report of a run whose server did not start.
const fixture = (name: string) => readReport(path.join(import.meta.dirname, 'fixtures', name));
const unhandled = fixture('vitest-unhandled.json').unhandledErrors;
const vitest = { name: 'unit and server tests', exit: 1, report: fixture('vitest.json'), unhandled, log: '' };
const journeys = { name: 'journeys', exit: 1, report: fixture('playwright.json'), log: '' };

it("names the failed Vitest tests and files with their error and place, and the run's unhandled error", () => {
  const lines: string[] = digest([vitest]).split('\n');
  expect(lines.slice(0, 3)).toEqual([
    '-- unit and server tests (exit 1)',
    '  test files: 4 failed of 5',
    '  tests: 3 failed, 2 passed, 1 skipped; 1 unhandled error',
  ]);
  const text = lines.join('\n');
  expect(text).toContain(
    'FAIL apps/server/a.test.ts > payouts > adds up\n    AssertionError: expected 2 to be 3 // Object.is equality\n    at apps/server/a.test.ts:3:39\n',
  );
  expect(text).toContain('FAIL apps/server/a.test.ts > throws in a hook-less test\n    Error: Plugin did not start in time');
  expect(text).toContain('FAIL apps/server/c.test.ts\n    the template database is missing'); // its beforeAll threw
  expect(text).toContain("FAIL apps/server/d.test.ts\n    Cannot find module './missing-module'");
  // A timeout: the report has no message for it, only the test's place and duration.
  expect(text).toContain('FAIL apps/server/e.test.ts > waits for ever\n    Timed out after 0.2 s');
  expect(text).toContain('    at apps/server/e.test.ts:3:1');
  expect(text).toContain('UNHANDLED (while apps/server/b.test.ts ran) Error: late boom\n    at apps/server/b.test.ts:2:71');
  expect(text).not.toContain('node_modules'); // the place is the test's own line, not the runner's
  expect(text).not.toContain('passes');
});

it('names the failed and the flaky journeys, and why each failed, once despite the retry', () => {
  const text: string = digest([journeys]);
  expect(text).toMatch(
    /^-- journeys \(exit 1\)\n {2}journeys: 2 failed, 1 flaky, 1 passed, 0 skipped\n {4}failed: e2e\/tests\/x\.spec\.ts:2:1 › fails always\n {4}failed: e2e\/tests\/x\.spec\.ts:5:1 › hangs\n {4}flaky: e2e\/tests\/x\.spec\.ts:3:1 › flaky once\n/,
  );
  expect(text).toContain(
    'FAIL e2e/tests/x.spec.ts:2:1 › fails always\n    Error: the giveaway winner\n    expect(received).toBe(expected) // Object.is equality\n    Expected: 2\n    Received: 1\n    at e2e/tests/x.spec.ts:2:69',
  );
  expect(text.match(/Error: the giveaway winner/g)).toHaveLength(1);
  expect(text).toContain('FAIL e2e/tests/x.spec.ts:5:1 › hangs\n    Test timeout of 500ms exceeded.');
  expect(text).toContain('FLAKY e2e/tests/x.spec.ts:3:1 › flaky once\n    Error: expect(received)');
  expect(text).not.toContain('\u001b'); // colours stripped
  expect(text).not.toMatch(/\d \|/); // source excerpts left out: the place is named
});

it("names Playwright's error outside any journey (its server did not start)", () => {
  const text: string = digest([{ name: 'journeys', exit: 1, report: fixture('playwright-broken.json'), log: '' }]);
  expect(text).toContain('journeys: 0 failed, 0 flaky, 0 passed, 0 skipped; 1 error outside them');
  expect(text).toContain(
    'ERROR (outside the journeys)\n    Error: Process from config.webServer was not able to start. Exit code: 1',
  );
});

it("leaves out a part that passed, and shows a failed part's last lines when its report is missing or names nothing", () => {
  const passed = { ...vitest, exit: 0 };
  expect(digest([passed, journeys])).toMatch(/^-- journeys/);
  const build = 'npm error code ERESOLVE\n'.repeat(40) + 'npm error the last line\n';
  const noReport = digest([{ name: 'journeys', exit: 1, report: readReport('/nonexistent/report.json'), log: build }], 5);
  expect(noReport.split('\n').slice(0, 6)).toEqual([
    '-- journeys (exit 1; no report: its last lines)',
    ...Array(4).fill('npm error code ERESOLVE'),
    'npm error the last line',
  ]);
  const clean = { ...fixture('vitest.json'), numFailedTests: 0, testResults: [] };
  const crashed = digest([{ name: 'unit', exit: 1, report: clean, unhandled: [], log: 'Worker exited unexpectedly' }]);
  expect(crashed).toBe('-- unit (exit 1; its report names no failure: its last lines)\nWorker exited unexpectedly\n');
});

it('keeps the counts on the screen when many tests fail', () => {
  const report = fixture('vitest.json');
  const failing = report.testResults[0].assertionResults[0];
  const many = {
    ...report,
    testResults: [{ ...report.testResults[0], assertionResults: Array.from({ length: 40 }, () => failing) }],
  };
  const lines = digest([{ name: 'unit', exit: 1, report: many, unhandled: [], log: '' }]).split('\n');
  expect(lines[1]).toBe('  test files: 1 failed of 1');
  expect(lines.length).toBeLessThanOrEqual(68);
  expect(lines.at(-2)).toMatch(/^… and 60 more lines/);
});
