/** How waiting bot messages fold into one Kick chat message (docs/features/kick-chat-queue.md). */
import { describe, expect, it } from 'vitest';
import { KICK_CHAT_MAX, nextBatch, type WaitingChat } from './chat-merge';

let id = 0;
const ack = (who: string, item: string, topic = 'Bets taken'): WaitingChat => ({
  id: ++id,
  kind: 'ack',
  topic,
  addressee: who,
  body: item,
  replyTo: `m-${id}`,
});
const personal = (who: string, text: string): WaitingChat => ({
  id: ++id,
  kind: 'personal',
  topic: null,
  addressee: who,
  body: text,
  replyTo: `m-${id}`,
});
const announce = (text: string): WaitingChat => ({
  id: ++id,
  kind: 'announce',
  topic: null,
  addressee: null,
  body: text,
  replyTo: null,
});

describe('merging the outgoing chat', () => {
  it('folds acknowledgements of one topic up to 500 characters and counts the rest as "+N more"', () => {
    const waiting = [ack('a', '500 on 1'), ack('b', '1.2k on 2')];
    expect(nextBatch(waiting)).toEqual({
      ids: [waiting[0]!.id, waiting[1]!.id],
      content: 'Bets taken: @a 500 on 1 · @b 1.2k on 2',
      replyTo: undefined,
    });

    const many = Array.from({ length: 60 }, (_, i) => ack(`bettor_${String(i).padStart(2, '0')}`, '1.5k on 2'));
    const batch = nextBatch(many)!;
    expect(batch.content.length).toBeLessThanOrEqual(KICK_CHAT_MAX);
    const named = batch.content.match(/@bettor_\d+/g)!;
    expect(named).toHaveLength(batch.ids.length);
    expect(batch.content.endsWith(` · +${60 - batch.ids.length} more`)).toBe(true);
    // One more name would not have fitted.
    expect(`${batch.content} · @bettor_99 1.5k on 2`.length).toBeGreaterThan(KICK_CHAT_MAX - ' · +99 more'.length);
    // The count covers the whole topic even when only part of it was read.
    expect(nextBatch(many, 1000)!.content).toMatch(new RegExp(`\\+${1000 - batch.ids.length} more$`));
  });

  it('keeps a lone answer as a reply, folds one person’s answers, and never mixes people or kinds', () => {
    const alone = personal('a', 'not enough points (balance: 50).');
    expect(nextBatch([alone])).toEqual({
      ids: [alone.id],
      content: '@a not enough points (balance: 50).',
      replyTo: alone.replyTo,
    });
    const first = personal('a', 'not enough points.');
    const other = personal('b', 'the minimum bet is 10 points.');
    const second = personal('a', 'no prediction is taking bets right now.');
    const bet = ack('a', '5 on 1');
    expect(nextBatch([first, other, bet, second])).toMatchObject({
      ids: [first.id, second.id],
      content: '@a: not enough points · no prediction is taking bets right now',
    });
  });

  it('sends an announcement alone, as written, even among acknowledgements', () => {
    const winner = announce('The giveaway winner is @lucky!');
    const bet = ack('a', '5 on 1');
    expect(nextBatch([winner, bet])).toEqual({ ids: [winner.id], content: winner.body, replyTo: undefined });
    expect(nextBatch([bet, winner])).toMatchObject({ ids: [bet.id], content: 'Bets taken: @a 5 on 1' });
  });

  it('folds thanks of one topic like acknowledgements', () => {
    const gifts = { kind: 'thanks' as const, topic: 'Thanks for the gifts', replyTo: null };
    const a = { ...gifts, id: ++id, addressee: 'a', body: '5 subs' };
    const b = { ...gifts, id: ++id, addressee: 'b', body: '1 sub' };
    expect(nextBatch([a, b])?.content).toBe('Thanks for the gifts: @a 5 subs · @b 1 sub');
  });
});
