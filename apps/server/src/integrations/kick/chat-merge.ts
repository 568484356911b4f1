/**
 * How waiting bot messages fold into one Kick chat message (docs/features/kick-chat-queue.md):
 * - `ack` and `thanks` of one topic → "Bets taken: @a 500 on 1 · @b 1.2k on 2 · +14 more", as many
 *   as fit in Kick's 500 characters; "+N more" counts the ones of that topic still waiting, which
 *   go out in the next message;
 * - `personal` answers to one person → "@a: not enough points · no open prediction" (one alone
 *   keeps its own words and stays a reply to the message it answers);
 * - `announce` goes out alone, as written.
 * The oldest waiting message decides what goes next, so nothing waits behind a busier topic.
 */
export const KICK_CHAT_MAX = 500;
const SEP = ' · ';

export type ChatOutKind = 'ack' | 'personal' | 'announce' | 'thanks';

export interface WaitingChat {
  id: number;
  kind: ChatOutKind;
  topic: string | null;
  addressee: string | null;
  body: string;
  replyTo: string | null;
}

export interface ChatBatch {
  /** The queue rows this message carries. */
  ids: number[];
  content: string;
  replyTo: string | undefined;
}

const clip = (text: string, max = KICK_CHAT_MAX) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
const folded = (body: string) => body.replace(/[.\s]+$/, '');

/**
 * The next message to post from the waiting rows (oldest first), or null when none wait.
 * `groupSize` is how many rows of the first row's topic wait in all (more than `waiting` may hold).
 */
export function nextBatch(waiting: readonly WaitingChat[], groupSize?: number): ChatBatch | null {
  const first = waiting[0];
  if (!first) return null;
  if (first.kind === 'announce') return { ids: [first.id], content: clip(first.body), replyTo: undefined };
  if (first.kind === 'personal') {
    const group = waiting.filter((w) => w.kind === 'personal' && w.addressee === first.addressee);
    if (group.length === 1) {
      return {
        ids: [first.id],
        content: clip(`@${first.addressee} ${first.body}`),
        replyTo: first.replyTo ?? undefined,
      };
    }
    let content = `@${first.addressee}: ${folded(first.body)}`;
    const ids = [first.id];
    for (const w of group.slice(1)) {
      const next = `${content}${SEP}${folded(w.body)}`;
      if (next.length > KICK_CHAT_MAX) break;
      content = next;
      ids.push(w.id);
    }
    return { ids, content: clip(content), replyTo: first.replyTo ?? undefined };
  }
  const group = waiting.filter((w) => w.kind === first.kind && w.topic === first.topic);
  const total = Math.max(groupSize ?? group.length, group.length);
  const head = `${first.topic ?? ''}: `;
  const item = (w: WaitingChat) => `@${w.addressee} ${w.body}`;
  const more = (rest: number) => (rest > 0 ? `${SEP}+${rest} more` : '');
  let items = clip(item(first), KICK_CHAT_MAX - head.length - more(total - 1).length);
  const ids = [first.id];
  for (const w of group.slice(1)) {
    const next = `${items}${SEP}${item(w)}`;
    if (head.length + next.length + more(total - ids.length - 1).length > KICK_CHAT_MAX) break;
    items = next;
    ids.push(w.id);
  }
  return {
    ids,
    content: clip(`${head}${items}${more(total - ids.length)}`),
    replyTo: ids.length === 1 && total === 1 ? (first.replyTo ?? undefined) : undefined,
  };
}
