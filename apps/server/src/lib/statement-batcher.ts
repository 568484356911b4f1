/**
 * Rows that arrive within a few milliseconds (or up to a few hundred) go to the database together,
 * in ONE statement, like the chat ingest's (modules/chat/ingest.ts). Each caller's promise settles
 * with its own row's result once the statement that carried it has committed (or rejects with the
 * statement's error). One statement runs at a time; rows that arrive meanwhile wait for the next.
 */
import { isDataError } from './db-errors';

export interface StatementBatcherOptions {
  /** Wait at most this long for more rows before writing (ms). */
  delayMs?: number;
  /** Write at once when this many rows are waiting. */
  maxRows?: number;
}

interface Waiting<In, Out> {
  row: In;
  resolve(value: Out): void;
  reject(err: unknown): void;
}

export class StatementBatcher<In, Out> {
  private waiting: Array<Waiting<In, Out>> = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> | null = null;
  private readonly delayMs: number;
  private readonly maxRows: number;
  /** Statements run so far (tests read it). */
  batches = 0;

  /** `run` answers one result per row, in the rows' order. */
  constructor(
    private readonly run: (rows: In[]) => Promise<Out[]>,
    opts: StatementBatcherOptions = {},
  ) {
    this.delayMs = opts.delayMs ?? 2;
    this.maxRows = opts.maxRows ?? 500;
  }

  add(row: In): Promise<Out> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ row, resolve, reject });
      this.schedule();
    });
  }

  /** Writes whatever is waiting (and resolves when nothing is). */
  async drain(): Promise<void> {
    while (this.writing || this.waiting.length > 0) {
      if (this.writing) await this.writing;
      else await this.writeNow();
    }
  }

  private schedule(): void {
    if (this.writing) return; // the running write schedules the rest when it ends
    if (this.waiting.length >= this.maxRows) {
      void this.writeNow();
      return;
    }
    this.timer ??= setTimeout(() => void this.writeNow(), this.delayMs);
  }

  private writeNow(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.writing) return this.writing;
    const batch = this.waiting.splice(0, this.maxRows);
    if (batch.length === 0) return Promise.resolve();
    this.writing = this.write(batch).finally(() => {
      this.writing = null;
      if (this.waiting.length > 0) this.schedule();
    });
    return this.writing;
  }

  private async write(batch: Array<Waiting<In, Out>>): Promise<void> {
    this.batches += 1;
    let results: Out[];
    try {
      results = await this.run(batch.map((w) => w.row));
    } catch (err) {
      for (const w of batch) w.reject(err);
      return;
    }
    batch.forEach((w, i) => w.resolve(results[i]!));
  }
}

/**
 * Writes `rows` with one `statement`. A statement is all or nothing, so when the database refuses a
 * value (isDataError) each row is written again on its own and only the refused one fails, with
 * `failed(error)` in its place. A connection or server error, which every row would meet again,
 * fails them all.
 */
export async function eachAloneOnRefusal<Row, Out>(
  rows: Row[],
  statement: (rows: Row[]) => Promise<Out[]>,
  failed: (error: unknown) => Out,
): Promise<Out[]> {
  try {
    return await statement(rows);
  } catch (err) {
    if (rows.length <= 1 || !isDataError(err)) throw err;
    const out: Out[] = [];
    for (const row of rows) out.push(...(await statement([row]).catch((error: unknown) => [failed(error)])));
    return out;
  }
}
