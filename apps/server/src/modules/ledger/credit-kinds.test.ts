/**
 * Every credit names its kind (docs/features/staff-prize-limits.md#every-credit-names-its-kind):
 * every ledger reason is classified, every reason the server's code writes to the ledger is one of
 * them, a prize is credited only by the staff-prize gate, and the ledger refuses a prize, a spend
 * or an unknown code as a credit. Reads the server's source, so the next feature cannot miss it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ledgerReasonKind, ledgerReasonKinds, ledgerReasons } from '@kickback/common/http/activity';
import type { DbOrTx } from '../../db/client';
import { applyBalanceChange, creditMany, type PlainReason } from './service';

const SRC = join(import.meta.dirname, '../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The text of each call `name(…)` in `text`, up to its closing parenthesis. */
function callsOf(text: string, name: string): string[] {
  const calls: string[] = [];
  const opener = new RegExp(`\\b${name}\\(`, 'g');
  for (let m = opener.exec(text); m; m = opener.exec(text)) {
    let depth = 1;
    let i = m.index + m[0].length;
    for (; i < text.length && depth > 0; i++) {
      if (text[i] === '(') depth++;
      else if (text[i] === ')') depth--;
    }
    calls.push(text.slice(m.index, i));
  }
  return calls;
}

/** Codes in a call's `reason:` (a literal, or each branch of a conditional), or its bare literals. */
function reasonLiterals(call: string, bare: boolean): string[] {
  const found: string[] = [];
  for (const m of call.matchAll(/reason:\s*([^,\n}]+)/g)) {
    for (const lit of m[1]!.matchAll(/'([a-z_]+)'/g)) found.push(lit[1]!);
  }
  if (bare) for (const lit of call.matchAll(/'([a-z_]+)'/g)) found.push(lit[1]!);
  return found.filter((code) => code !== 'points' && code !== 'gems');
}

interface Site {
  file: string;
  via: string;
  reason: string;
}

/** Every reason written to the ledger by the server's code, with where and how. */
function ledgerWrites(): Site[] {
  const sites: Site[] = [];
  for (const path of sourceFiles(SRC)) {
    const file = relative(SRC, path);
    const text = readFileSync(path, 'utf8');
    for (const via of [
      'applyBalanceChange',
      'spend',
      'payPrizes',
      'payPrizeBatch',
      'applyPrizeCreditThroughGate',
    ] as const) {
      for (const call of callsOf(text, via)) {
        for (const reason of reasonLiterals(call, false)) sites.push({ file, via, reason });
      }
    }
    for (const call of callsOf(text, 'creditMany')) {
      for (const reason of reasonLiterals(call, true)) sites.push({ file, via: 'creditMany', reason });
    }
    // Statements that write ledger rows themselves: every bare code in the INSERT … SELECT.
    for (const m of text.matchAll(/INSERT INTO ledger\b[\s\S]*?(?:RETURNING|FROM\s+\w+\s*\n|`)/g)) {
      // (not a JSON key read with -> or ->>)
      for (const lit of m[0].matchAll(/(?<!->>?)'([a-z_]+)'/g)) {
        if (lit[1] !== 'points' && lit[1] !== 'gems') sites.push({ file, via: 'INSERT INTO ledger', reason: lit[1]! });
      }
    }
  }
  return sites;
}

describe('every credit names its kind', () => {
  it('classifies every ledger reason, and nothing else', () => {
    expect(Object.keys(ledgerReasonKinds).sort()).toEqual([...ledgerReasons].sort());
    for (const reason of ledgerReasons) expect(ledgerReasonKind(reason), reason).not.toBeNull();
  });

  it('every reason the server writes to the ledger is classified; no prize is paid past the gate', () => {
    const sites = ledgerWrites();
    // The scan finds the writes it must (so it cannot pass by finding nothing).
    const seen = (via: string, reason: string) => sites.some((s) => s.via === via && s.reason === reason);
    expect(seen('payPrizes', 'slot_call_payout')).toBe(true);
    expect(seen('payPrizes', 'hunt_prize')).toBe(true);
    expect(seen('payPrizes', 'battle_prize')).toBe(true);
    expect(seen('payPrizes', 'raffle_prize')).toBe(true);
    expect(seen('payPrizeBatch', 'milestone_reward')).toBe(true);
    expect(seen('creditMany', 'chat_activity')).toBe(true);
    expect(seen('INSERT INTO ledger', 'prediction_bet')).toBe(true);
    expect(seen('applyBalanceChange', 'support_reward')).toBe(true);

    const unclassified = sites.filter((s) => ledgerReasonKind(s.reason) === null);
    expect(unclassified, 'ledger reasons written but not in ledgerReasonKinds').toEqual([]);
    const prizesPastTheGate = sites.filter(
      (s) =>
        ledgerReasonKind(s.reason) === 'prize' &&
        s.via !== 'payPrizes' &&
        s.via !== 'payPrizeBatch' &&
        s.via !== 'applyPrizeCreditThroughGate',
    );
    expect(prizesPastTheGate, 'prizes credited outside payPrizes').toEqual([]);
  });

  it('a prize reason is named only where prizes go through the gate', () => {
    const prizeCodes = ledgerReasons.filter((r) => ledgerReasonKinds[r] === 'prize');
    const strays = sourceFiles(SRC).flatMap((path) => {
      const text = readFileSync(path, 'utf8');
      if (/\bpayPrizes\(|\bpayPrizeBatch\(|applyPrizeCreditThroughGate\(/.test(text)) return [];
      return prizeCodes.filter((code) => text.includes(`'${code}'`)).map((code) => `${relative(SRC, path)}: ${code}`);
    });
    expect(strays).toEqual([]);
  });

  it('only the staff-prize gate calls the prize credit', () => {
    const callers = sourceFiles(SRC)
      .filter((path) => /applyPrizeCreditsThroughGate\(|applyPrizeCreditThroughGate\(/.test(readFileSync(path, 'utf8')))
      .map((path) => relative(SRC, path).replaceAll('\\', '/'))
      .sort();
    expect(callers).toEqual(['modules/ledger/service.ts', 'modules/staff-prizes/service.ts']);
  });

  it('the ledger refuses a prize, a spend or an unknown code as a credit, before touching the database', async () => {
    const untouched = new Proxy({} as DbOrTx, {
      get() {
        throw new Error('the database was used');
      },
    });
    const credit = (reason: string) =>
      applyBalanceChange(untouched, {
        userId: '00000000-0000-0000-0000-000000000000',
        currency: 'points',
        delta: '40000',
        reason: reason as PlainReason,
      });
    await expect(credit('slot_call_payout')).rejects.toThrow(/is a prize: it is paid through the staff-prize gate/);
    await expect(credit('battle_prize')).rejects.toThrow(/is a prize/);
    await expect(credit('order')).rejects.toThrow(/is spending/);
    await expect(credit('free_money')).rejects.toThrow(/not a classified ledger reason/);
    await expect(
      creditMany(untouched, 'points', 'hunt_prize' as PlainReason, [{ userId: 'x', amount: 1 }]),
    ).rejects.toThrow(/is a prize/);
  });
});
