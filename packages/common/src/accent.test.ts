import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { accentContrast, accentContrastProblem, accentTokens, contrastRatio, parseHexColour } from './accent';
import { brandingBody } from './http/site';

describe('the accent colour', () => {
  it('measures contrast as WCAG does', () => {
    expect(contrastRatio([0, 0, 0], [255, 255, 255])).toBeCloseTo(21, 5);
    expect(contrastRatio([255, 255, 255], [255, 255, 255])).toBe(1);
  });

  it('refuses an accent the dark button text or the dark pages would not read against, with its ratio', () => {
    expect(accentContrastProblem('#53fc18')).toBeNull();
    expect(accentContrastProblem('#ff3366')).toBeNull();
    expect(accentContrast('#0d6efd')).toBeLessThan(4.5);
    expect(accentContrastProblem('#0d6efd')).toBe(
      "The accent colour #0d6efd is too dark: the buttons' dark text and links on the dark pages would read at 3.67:1, and text needs 4.5:1. Pick a lighter colour.",
    );
    expect(accentContrastProblem('not a colour')).toBeNull(); // the format's own message says that
  });

  it('the branding schema says so on the field (the server and the form alike)', () => {
    const issue = (accentColor: string) =>
      brandingBody.shape.accentColor.safeParse(accentColor).error?.issues.map((i) => i.message);
    expect(issue('#53fc18')).toBeUndefined();
    expect(issue('#7c3aed')).toEqual([expect.stringMatching(/^The accent colour #7c3aed is too dark.*2\.90:1/)]);
    expect(issue('red')).toEqual(['The accent colour must be a colour like #53fc18.']);
  });

  it('derives every accent token from the one colour; tokens.css holds the default colour’s', () => {
    const css = readFileSync(new URL('../../../apps/web/src/tokens.css', import.meta.url), 'utf8');
    const declared = (name: string) => new RegExp(`${name}:\\s*([^;]+);`).exec(css)?.[1];
    const tokens = accentTokens(declared('--kb-accent')!)!;
    expect(tokens.accent).toBe('#53fc18');
    expect(declared('--kb-accent-rgb')).toBe(tokens.rgb);
    expect(declared('--kb-accent-hover')).toBe(tokens.hover);
    expect(declared('--kb-accent-hover-rgb')).toBe(tokens.hoverRgb);
    expect(declared('--kb-accent-active')).toBe(tokens.active);
    expect(declared('--kb-accent-disabled')).toBe(tokens.disabled);
    expect(declared('--kb-accent-text')).toBe(tokens.text);
    expect(declared('--kb-accent-text-rgb')).toBe(tokens.textRgb);
    expect(accentTokens('#00b3ff')).toMatchObject({ accent: '#00b3ff', rgb: '0, 179, 255' });
    expect(accentTokens('nope')).toBeNull();
  });

  it('hover and active states stay at least as readable under the dark text as the accent itself', () => {
    const ink = parseHexColour('#0b0d10')!;
    for (const hex of ['#53fc18', '#ff3366', '#00b3ff', '#f59e0b']) {
      const t = accentTokens(hex)!;
      const ratio = contrastRatio(parseHexColour(hex)!, ink);
      expect(contrastRatio(parseHexColour(t.hover)!, ink)).toBeGreaterThanOrEqual(ratio);
      expect(contrastRatio(parseHexColour(t.active)!, ink)).toBeGreaterThanOrEqual(ratio);
    }
  });

  it('the accent as text reads at 4.5:1 on the lightest surface under its own tint, lifted only when it must', () => {
    // Every accepted accent on a grid of colours: tables, dialogs and chips are lighter than the
    // surface the admin's check measures, so a colour near the bar is lightened for text.
    const table = parseHexColour('#212529')!;
    let lifted = 0;
    for (let r = 0; r < 256; r += 51)
      for (let g = 0; g < 256; g += 51)
        for (let b = 0; b < 256; b += 51) {
          const hex = `#${[r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('')}`;
          if (accentContrastProblem(hex) !== null) continue;
          const accent = parseHexColour(hex)!;
          const tinted = [0, 1, 2].map((i) => table[i]! + (accent[i]! - table[i]!) * 0.22) as [number, number, number];
          const t = accentTokens(hex)!;
          expect(contrastRatio(parseHexColour(t.text)!, tinted), hex).toBeGreaterThanOrEqual(4.5);
          expect(t.textRgb).toBe(parseHexColour(t.text)!.join(', '));
          if (t.text !== t.accent) lifted += 1;
        }
    expect(lifted).toBeGreaterThan(0);
    expect(accentTokens('#53fc18')!.text).toBe('#53fc18'); // already reads: unchanged
    expect(accentTokens('#f59e0b')!.text).toBe('#f59e0b');
    expect(accentTokens('#d35f9b')!.text).toBe('#de89b5'); // a mid pink near the bar, lightened
    expect(accentContrast('#d35f9b')).toBeGreaterThanOrEqual(4.5);
  });
});
