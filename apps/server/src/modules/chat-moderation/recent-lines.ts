/**
 * The repeated-message rule's memory (docs/features/chat-moderation.md#where-it-runs): per Kick user, their
 * last lines (normalised) and when each came, in this process. It runs on every message while the
 * rule is on, so a line costs a scan of at most `perSender` slots and no allocation once the
 * sender's slots exist: the lines are kept in place (the ones past the window dropped as they are
 * met), and the senders in a list from least to most recently heard, so the one heard from least
 * recently is the one forgotten when the memory is full (its slots reused for the newcomer).
 */
interface Sender {
  key: string;
  /** The sender's remembered lines, oldest first: `texts[i]` came at `ats[i]`; `n` of them are in use. */
  texts: string[];
  ats: number[];
  n: number;
  /** Neighbours in the list ordered by when the sender was last heard. */
  earlier: Sender | null;
  later: Sender | null;
}

export class RecentLines {
  private readonly senders = new Map<string, Sender>();
  /** Least and most recently heard. */
  private first: Sender | null = null;
  private last: Sender | null = null;

  constructor(
    private readonly perSender = 20,
    private readonly maxSenders = 20_000,
  ) {}

  get size(): number {
    return this.senders.size;
  }

  /**
   * Records `text` from `key` at `now` and answers how many of the sender's remembered lines that
   * came after `since` are the same text. Lines at or before `since` are forgotten; of the rest, the
   * last `perSender` (this one included) are kept.
   */
  record(key: string, text: string, now: number, since: number): number {
    const s = this.heard(key);
    const { texts, ats } = s;
    let kept = 0;
    let same = 0;
    for (let i = 0; i < s.n; i++) {
      const at = ats[i]!;
      if (!(at > since)) continue;
      const t = texts[i]!;
      if (t === text) same += 1;
      if (kept !== i) {
        texts[kept] = t;
        ats[kept] = at;
      }
      kept += 1;
    }
    if (kept === this.perSender) {
      // Full: the oldest line makes room.
      for (let i = 1; i < kept; i++) {
        texts[i - 1] = texts[i]!;
        ats[i - 1] = ats[i]!;
      }
      kept -= 1;
    }
    if (kept < texts.length) {
      texts[kept] = text;
      ats[kept] = now;
    } else {
      texts.push(text);
      ats.push(now);
    }
    // Slots past `n` keep their old strings until reused; `n` bounds them to `perSender`.
    for (let i = kept + 1; i < s.n; i++) texts[i] = '';
    s.n = kept + 1;
    return same;
  }

  /** The sender's record, now the most recently heard (a new one, or the least recent one reused). */
  private heard(key: string): Sender {
    let s = this.senders.get(key);
    if (s === undefined) {
      if (this.senders.size >= this.maxSenders && this.first) {
        s = this.first;
        this.senders.delete(s.key);
        this.unlink(s);
        s.key = key;
        s.n = 0;
        s.texts.fill('');
      } else {
        s = { key, texts: [], ats: [], n: 0, earlier: null, later: null };
      }
      this.senders.set(key, s);
      this.append(s);
    } else if (s !== this.last) {
      this.unlink(s);
      this.append(s);
    }
    return s;
  }

  private unlink(s: Sender): void {
    if (s.earlier) s.earlier.later = s.later;
    else this.first = s.later;
    if (s.later) s.later.earlier = s.earlier;
    else this.last = s.earlier;
    s.earlier = null;
    s.later = null;
  }

  private append(s: Sender): void {
    s.earlier = this.last;
    if (this.last) this.last.later = s;
    else this.first = s;
    this.last = s;
  }
}
