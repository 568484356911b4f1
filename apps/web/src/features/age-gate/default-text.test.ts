/**
 * The 18+ gate's default text is shown in the viewer's language (docs/features/languages.md#on-the-site):
 * the web recognises it by the server's default, so the two must stay the same words.
 */
// @vitest-environment node
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import en from '../../i18n/locales/en.json';
import { DEFAULT_GATE_TEXT } from './age-gate-dialog';

describe("the 18+ gate's default text", () => {
  it("is the server's default, and the English catalogue's", () => {
    const config = readFileSync(path.resolve(import.meta.dirname, '../../../../server/src/config.ts'), 'utf8');
    expect(config).toContain(`text: '${DEFAULT_GATE_TEXT}'`);
    expect(en.ageGate.defaultText).toBe(DEFAULT_GATE_TEXT);
  });
});
