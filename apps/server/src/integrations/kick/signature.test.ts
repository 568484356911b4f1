/** The signature header's shape test (./signature.ts), against the expression it stands for. */
import { describe, expect, it } from 'vitest';
import { isBase64 } from './signature';

const EXPRESSION = /^[A-Za-z0-9+/]+={0,2}$/;

describe('the signature header shape', () => {
  it('accepts exactly what /^[A-Za-z0-9+/]+={0,2}$/ accepts', () => {
    const fixed = ['', '=', '==', '===', 'a', 'a=', 'a==', 'a===', 'ab=c', '=ab', 'a b', 'a\n', 'a-_', 'AZaz09+/=='];
    const alphabet = 'Az09+/=-_ \n.é';
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const generated = Array.from({ length: 5000 }, () =>
      Array.from({ length: Math.floor(random() * 6) }, () => alphabet[Math.floor(random() * alphabet.length)]).join(''),
    );
    for (const s of [...fixed, ...generated]) expect(isBase64(s), JSON.stringify(s)).toBe(EXPRESSION.test(s));
  });
});
