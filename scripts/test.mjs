// `npm test`: every test, each once. The browser journeys (build, then Playwright) run in the
// foreground; Vitest (unit tests, the server tests on PostgreSQL, the server's PGlite set) runs
// beside them at a lower priority, since the journeys mostly wait on the pages' real timers
// (docs/conventions.md#test-speed). Vitest's output is printed when it ends; either part failing
// fails the command, which then ends with what failed, read from the runners' reports
// (scripts/ci-failures.mjs).
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { setPriority } from 'node:os';
import path from 'node:path';
import { digest, readReport } from './ci-failures.mjs';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const reports = path.join(import.meta.dirname, '..', 'test-reports');
/** Bytes kept of a part's output: its last lines stand in for a report that names no failure. */
const KEPT = 64 * 1024;

// A report left by an earlier run must not speak for this one.
rmSync(reports, { recursive: true, force: true });

function run(script, { quiet = false, nice = 0 } = {}) {
  const child = spawn(npm, ['run', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  if (nice) setPriority(child.pid, nice);
  const output = [];
  let kept = '';
  for (const s of [child.stdout, child.stderr])
    s.on('data', (d) => {
      if (quiet) output.push(d);
      else (s === child.stdout ? process.stdout : process.stderr).write(d);
      kept = (kept + d.toString()).slice(-KEPT);
    });
  const started = performance.now();
  return new Promise((resolve) =>
    child.on('close', (code) =>
      resolve({
        code: code ?? 1,
        output,
        log: () => kept,
        seconds: Math.round((performance.now() - started) / 1000),
      }),
    ),
  );
}

console.log('== unit and server tests (beside the journeys, at nice 10; output at the end)');
const unit = run('test:unit', { quiet: true, nice: 10 });
console.log('== browser tests (build, then the journeys)');
const e2e = await run('test:e2e');
console.log(`== browser tests (exit ${e2e.code}, ${e2e.seconds} s)`);
const u = await unit;
process.stdout.write(Buffer.concat(u.output));
console.log(`== unit and server tests (exit ${u.code}, ${u.seconds} s)`);
if (e2e.code || u.code) {
  console.log('== what failed (the whole output is above)');
  const parts = [
    {
      name: 'unit and server tests',
      exit: u.code,
      report: readReport(path.join(reports, 'vitest.json')),
      unhandled: readReport(path.join(reports, 'vitest-unhandled.json'))?.unhandledErrors ?? [],
      log: u.log(),
    },
    { name: 'browser tests', exit: e2e.code, report: readReport(path.join(reports, 'playwright.json')), log: e2e.log() },
  ];
  console.log(digest(parts));
}
process.exit(e2e.code || u.code);
