/**
 * Partners for tests: a `networkFetch` that answers the partner hosts the test env points the
 * real adapters at, with whatever figures (or failures) a test sets, and counts the calls.
 */
import { vi } from 'vitest';

export const partnerEnv = {
  ROOBET_API_KEY: 'roobet-test-key',
  ROOBET_AFFILIATE_ID: 'aff-test',
  ROOBET_API_URL: 'https://roobet.partner.test',
  CLASH_API_KEY: 'clash-test-key',
  CLASH_API_URL: 'https://clash.partner.test',
  RUSTMAGIC_API_KEY: 'rustmagic-test-key',
  RUSTMAGIC_API_URL: 'https://rustmagic.partner.test',
  RUSTMAGIC_BOARD: 'Kickback',
};

type Answer = { status: number; body: string } | (() => Promise<{ status: number; body: string }>);

export class FakePartners {
  private readonly answers = new Map<string, Answer>();
  readonly calls: URL[] = [];

  /** Figures in partner units (floats for Roobet/RustMagic, gem cents for Clash). */
  roobet(rows: Array<{ username: string; wagered: number; weightedWagered: number; uid?: string }>) {
    this.answers.set('roobet.partner.test', { status: 200, body: JSON.stringify(rows) });
  }
  clash(rows: Array<{ id?: number; name: string; wagered: number; avatar?: string | null }>) {
    this.answers.set('clash.partner.test', { status: 200, body: JSON.stringify(rows) });
  }
  rustmagic(rows: Array<{ id?: string; username: string; wagered: number; board?: string }>) {
    this.answers.set('rustmagic.partner.test', { status: 200, body: JSON.stringify({ data: rows }) });
  }
  /** An HTTP error or a raw body for a host ('roobet' | 'clash' | 'rustmagic'). */
  answer(partner: string, status: number, body: string) {
    this.answers.set(`${partner}.partner.test`, { status, body });
  }
  /** Holds the next answer until `release` is called. */
  hold(partner: string): () => void {
    const current = this.answers.get(`${partner}.partner.test`);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    this.answers.set(`${partner}.partner.test`, async () => {
      await gate;
      if (!current) return { status: 404, body: '{}' };
      return typeof current === 'function' ? current() : current;
    });
    return release;
  }

  readonly fetch = vi.fn<typeof fetch>(async (input) => {
    const url = new URL(input instanceof Request ? input.url : input.toString());
    this.calls.push(url);
    const answer = this.answers.get(url.hostname);
    if (!answer) return new Response('{"message":"no such partner"}', { status: 404 });
    const { status, body } = typeof answer === 'function' ? await answer() : answer;
    return new Response(body, { status, headers: { 'content-type': 'application/json' } });
  });

  callsTo(partner: string): number {
    return this.calls.filter((u) => u.hostname === `${partner}.partner.test`).length;
  }
}
