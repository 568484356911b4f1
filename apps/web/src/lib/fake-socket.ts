/**
 * A stand-in for socket.io-client's Socket in web tests: records what the hub client asks of it,
 * lets a test fire server events and answer calls. Tests mock `socket.io-client` with `fakeIo`.
 */
export class FakeSocket {
  connected = false;
  connects: number[] = [];
  handlers = new Map<string, Array<(...args: unknown[]) => void>>();
  emitted: unknown[][] = [];
  options: Record<string, unknown>;
  answer: unknown = { ok: true, data: null };
  /** Answers by call name (over `answer`). */
  answers = new Map<string, unknown>();
  constructor(
    readonly url: string,
    options: Record<string, unknown>,
  ) {
    this.options = options;
  }
  on(event: string, fn: (...args: unknown[]) => void) {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), fn]);
    return this;
  }
  off(event: string, fn: (...args: unknown[]) => void) {
    this.handlers.set(
      event,
      (this.handlers.get(event) ?? []).filter((f) => f !== fn),
    );
    return this;
  }
  removeAllListeners() {
    this.handlers.clear();
    return this;
  }
  fire(event: string, ...args: unknown[]) {
    for (const fn of this.handlers.get(event) ?? []) fn(...args);
  }
  connect() {
    this.connects.push(Date.now());
    return this;
  }
  disconnect() {
    this.connected = false;
    return this;
  }
  timeout(ms: number) {
    return {
      emitWithAck: async (...args: unknown[]) => {
        this.emitted.push([ms, ...args]);
        const name = args[0] as string;
        return this.answers.has(name) ? this.answers.get(name) : this.answer;
      },
    };
  }
}

export const sockets: FakeSocket[] = [];

export function fakeIo(url: string, options: Record<string, unknown>): FakeSocket {
  const socket = new FakeSocket(url, options);
  sockets.push(socket);
  return socket;
}
