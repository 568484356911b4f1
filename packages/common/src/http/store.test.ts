import { describe, expect, it } from 'vitest';
import { codeUploadBody, detailKindOf, isSteamTradeUrl, parseCodes, purchaseForm } from './store';

describe('delivery details: one rule for the dialog and the server', () => {
  it('accepts only the real Steam trade-offer URL shape', () => {
    const ok = 'https://steamcommunity.com/tradeoffer/new/?partner=123456789&token=AbC-12_x';
    expect(isSteamTradeUrl(ok)).toBe(true);
    for (const bad of [
      'https://steamcommunity.com/tradeoffer/new/?partner=123456789',
      'https://steamcommunity.com/tradeoffer/new/?token=AbC-12_x&partner=1',
      'http://steamcommunity.com/tradeoffer/new/?partner=1&token=AbC-12_x',
      'https://steamcommunity.com/tradeoffer/new/?partner=0&token=AbC-12_x',
      'https://steamcommunity.com/tradeoffer/new/?partner=4294967296&token=AbC-12_x',
      'https://steamcommunity.com/tradeoffer/new/?partner=1&token=a b',
      'https://evil.example/?u=https://steamcommunity.com/tradeoffer/new/?partner=1&token=AbC-12_x',
    ]) {
      expect(isSteamTradeUrl(bad), bad).toBe(false);
    }
  });

  it('the purchase form asks what the product needs, in plain words', () => {
    const steam = purchaseForm('steam_trade_url').safeParse({ deliveryDetail: 'nope' });
    expect(steam.success).toBe(false);
    expect(steam.error?.issues[0]?.message).toMatch(/^Enter your Steam trade URL/);
    expect(purchaseForm('email').safeParse({ deliveryDetail: ' fan@example.com ' }).data).toEqual({
      deliveryDetail: 'fan@example.com',
    });
    expect(purchaseForm('none').safeParse({}).success).toBe(true);
    expect(detailKindOf('fan@example.com')).toBe('email');
    expect(detailKindOf('hello')).toBeNull();
  });
});

describe('code uploads', () => {
  it('reads one code per line or the first CSV column, skipping blanks and a header', () => {
    expect(parseCodes('A-1\n\n  B-2 \r\nC-3')).toEqual(['A-1', 'B-2', 'C-3']);
    expect(parseCodes('code,value\n"A-1",10\nB-2,20\n')).toEqual(['A-1', 'B-2']);
  });
  it('refuses an upload that repeats a code, naming it', () => {
    const res = codeUploadBody.safeParse({ text: 'A\nB\nA\nC\nC' });
    expect(res.error?.issues.map((i) => i.message)).toEqual(['Repeated in this upload: A, C']);
    expect(codeUploadBody.safeParse({ text: '\n\n' }).error?.issues[0]?.message).toBe(
      'Paste at least one code, one per line',
    );
  });
});
