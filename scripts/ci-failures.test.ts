import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs script without types
import { digest, failures } from './ci-failures.mjs';

// Real output of Vitest's default reporter (coloured, as CI prints it) and Playwright's list
// reporter with one retry, from runs of deliberately failing tests; and the end of a real CI run's
// journeys (ci-journeys.txt).
const fixture = (name: string) => readFileSync(path.join(import.meta.dirname, 'fixtures', name), 'utf8');

it('names the failed Vitest tests with their error and place, and the uncaught error with its file', () => {
  const lines: string[] = failures(fixture('ci-vitest.txt'));
  expect(lines.slice(0, 3)).toEqual([
    ' Test Files  1 failed | 1 passed (2)',
    '      Tests  2 failed | 2 passed (4)',
    '     Errors  1 error',
  ]);
  const text = lines.join('\n');
  expect(text).toContain('FAIL  a.test.ts > payouts > adds up\n    AssertionError: expected 2 to be 3');
  expect(text).toContain(
    'FAIL  a.test.ts > throws in a hook-less test\n    Error: Plugin did not start in time\n    ❯ a.test.ts:6:54',
  );
  expect(text).toContain('[Uncaught Exception]\n    Error: late boom');
  expect(text).toContain('This error originated in "b.test.ts" test file.');
  expect(text).not.toContain('\u001b'); // colours stripped
  expect(text).not.toMatch(/\d\|/); // source excerpts left out: the stack line names the place
  expect(text).not.toContain('✓');
});

it('names the failed and the flaky journeys, and why each failed, once despite the retry', () => {
  const text = failures(fixture('ci-playwright.txt')).join('\n');
  expect(text).toMatch(
    /^ {2}1 failed\n {4}\[chromium\] › tests\/x\.spec\.ts:2:1 › fails always\n {2}1 flaky\n {4}\[chromium\] › tests\/x\.spec\.ts:4:1 › flaky once\n/,
  );
  expect(text).toContain('1) [chromium] › tests/x.spec.ts:2:1 › fails always\n    Error: the giveaway winner');
  expect(text.match(/Error: the giveaway winner/g)).toHaveLength(1);
  expect(text).not.toContain('passed');
  expect(text).not.toContain('Error Context');
});

it('reads a real CI log: its flaky journey (no project name) and the axe violation that failed it once', () => {
  const text = failures(fixture('ci-journeys.txt')).join('\n');
  const journey =
    'tests/kick-chat-queue.spec.ts:32:1 › an admin sees the bot messages queue, posts through a separate bot account, and switches back';
  expect(text).toContain(`  1 flaky\n    ${journey}\n`);
  expect(text).toContain(
    `1) ${journey}\n    Error: axe: serious or critical violations\n    /admin/integrations — color-contrast:`,
  );
  expect(text).not.toContain('attachment');
});

it('leaves out a log that names no failure, and shows the last lines when none names one', () => {
  const passed = ' Test Files  106 passed (106)\n      Tests  701 passed | 2 skipped (703)\n';
  expect(failures(passed)).toEqual([]);
  const both = digest([
    { name: 'npm test', text: fixture('ci-vitest.txt') },
    { name: 'PostgreSQL', text: passed },
  ]);
  expect(both).toMatch(/^-- npm test\n/);
  expect(both).not.toContain('PostgreSQL');
  const install = 'npm error code ERESOLVE\n'.repeat(40) + 'npm error the last line\n';
  const none = digest([{ name: 'npm test', text: install }], 5);
  expect(none.split('\n').slice(0, 6)).toEqual([
    '-- npm test (no test named; its last lines)',
    ...Array(4).fill('npm error code ERESOLVE'),
    'npm error the last line',
  ]);
});

it('keeps the counts on the screen when many tests fail', () => {
  const many = Array.from({ length: 40 }, (_, i) => ` FAIL  x.test.ts > case ${i}\nError: broke ${i}\n`).join('\n');
  const lines: string[] = failures(`${many}\n Test Files  1 failed (1)\n`);
  expect(lines[0]).toBe(' Test Files  1 failed (1)');
  expect(lines.length).toBeLessThanOrEqual(64);
  expect(lines.at(-1)).toMatch(/^… and 20 more lines/);
});
