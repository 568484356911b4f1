// `npm test`: every test. The browser journeys (build, then Playwright) run in the foreground; the
// unit and PGlite server tests run beside them at a lower priority, since the journeys mostly wait
// on the pages' real timers (docs/conventions.md#test-speed). The unit tests' output is printed
// when they end; either part failing fails the command.
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(script, { quiet = false, nice = 0 } = {}) {
  const child = spawn(npm, ['run', script], { stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
  if (nice) setPriority(child.pid, nice);
  const output = [];
  if (quiet) for (const s of [child.stdout, child.stderr]) s.on('data', (d) => output.push(d));
  const started = performance.now();
  return new Promise((resolve) =>
    child.on('close', (code) =>
      resolve({ code: code ?? 1, output, seconds: Math.round((performance.now() - started) / 1000) }),
    ),
  );
}

console.log('== unit and server tests on PGlite (beside the journeys, at nice 10; output at the end)');
const unit = run('test:unit', { quiet: true, nice: 10 });
console.log('== browser tests (build, then the journeys)');
const e2e = await run('test:e2e');
console.log(`== browser tests (exit ${e2e.code}, ${e2e.seconds} s)`);
const u = await unit;
console.log(`== unit and server tests on PGlite (exit ${u.code}, ${u.seconds} s)`);
process.stdout.write(Buffer.concat(u.output));
process.exit(e2e.code || u.code);
