// A Vitest reporter that writes the run's unhandled errors (a rejection or a timer's throw outside
// any test) to a JSON file: Vitest's own JSON report leaves them out, and they fail the run just
// the same. scripts/ci-failures.mjs reads both (docs/conventions.md#test-speed).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export default class UnhandledErrorsReporter {
  /** @param {{ outputFile: string }} options */
  constructor(options) {
    this.outputFile = options.outputFile;
  }

  /**
   * @param {unknown} _modules
   * @param {ReadonlyArray<{ name?: string, message?: string, stack?: string, VITEST_TEST_PATH?: string }>} errors
   */
  onTestRunEnd(_modules, errors) {
    const unhandledErrors = errors.map((e) => ({
      name: e.name ?? 'Error',
      message: e.message ?? String(e),
      stack: e.stack ?? '',
      file: e.VITEST_TEST_PATH ?? null,
    }));
    mkdirSync(path.dirname(this.outputFile), { recursive: true });
    writeFileSync(this.outputFile, JSON.stringify({ unhandledErrors }));
  }
}
