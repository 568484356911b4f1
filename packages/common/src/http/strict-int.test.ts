import { describe, expect, it } from 'vitest';
import { buyTicketsBody } from './raffles';
import { orderProductBody, productIdParams } from './store';
import { battleInput } from './battles';
import { pageNumber } from './endpoint';
import { strictInt } from './strict-int';

describe('strictInt: one whole-number reading for every quantity and id', () => {
  const n = strictInt('must be a whole number');

  it('reads JSON integers and decimal digits (paths and queries are text)', () => {
    expect(n.parse(10)).toBe(10);
    expect(n.parse('10')).toBe(10);
    expect(n.parse(' 7 ')).toBe(7);
    expect(n.parse('-3')).toBe(-3);
  });

  it('refuses what z.coerce.number() let through', () => {
    for (const bad of ['0x10', '1e1', true, false, '', ' ', '10.0', 1.5, '1_000', [5], null, 'Infinity', 1e300]) {
      const r = n.safeParse(bad);
      expect(r.success, `${JSON.stringify(bad)}`).toBe(false);
      expect(r.error?.issues[0]?.message).toBe('must be a whole number');
    }
  });

  it('is what the raffle quantity, product ids, battle sizes and page numbers use', () => {
    expect(buyTicketsBody.safeParse({ quantity: '0x10' }).success).toBe(false);
    expect(buyTicketsBody.safeParse({ quantity: true }).success).toBe(false);
    expect(buyTicketsBody.safeParse({ quantity: '1e1' }).success).toBe(false);
    expect(buyTicketsBody.parse({ quantity: 3 })).toEqual({ quantity: 3 });
    expect(buyTicketsBody.safeParse({ quantity: 0 }).error?.issues[0]?.message).toBe('Quantity must be at least 1');
    expect(orderProductBody.safeParse({ productId: '0x1' }).success).toBe(false);
    expect(productIdParams.safeParse({ id: '1e3' }).success).toBe(false);
    expect(productIdParams.parse({ id: '12' })).toEqual({ id: 12 });
    const battle = { title: 'B', registrationMinutes: 5, prize: { kind: 'points', amount: '10' } };
    expect(battleInput.safeParse({ ...battle, size: '0x8' }).success).toBe(false);
    expect(battleInput.safeParse({ ...battle, size: 8, registrationMinutes: true }).success).toBe(false);
    expect(pageNumber.safeParse('0x2').success).toBe(false);
    expect(pageNumber.parse(undefined)).toBe(1);
  });
});
