import { describe, expect, it } from 'vitest';
import { ChatHandlers, type ChatHandler } from './service';

const handler = (name: string, order: number): ChatHandler => ({ name, order, handle: async () => false });

describe('chat handler registration', () => {
  it('keeps handlers by order and refuses a second handler with the same name or the same order', () => {
    const handlers = new ChatHandlers();
    handlers.register(handler('verify', 100));
    expect(() => handlers.register(handler('verify', 101))).toThrow(/clashes with verify/);
    expect(() => handlers.register(handler('bet', 100))).toThrow(/order 100/);
    handlers.register(handler('bet', 110));
    handlers.register(handler('first', 10));
    expect(handlers.inOrder().map((h) => h.name)).toEqual(['first', 'verify', 'bet']);
  });
});
