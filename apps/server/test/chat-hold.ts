/** A chat handler that holds one message until the test releases it, as a stalled or slow process would. */
import type { ChatMessage } from '../src/integrations/kick/chat-message';
import type { ChatHandler } from '../src/modules/chat/service';

/**
 * Holds the first message `holds` picks (the first of all when left out), once, before the handlers
 * after `order` see it; every other message passes at once.
 */
export function holdFirst(holds: (m: ChatMessage) => boolean = () => true, order = 1) {
  let release!: () => void;
  let reached!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const arrived = new Promise<void>((r) => (reached = r));
  let used = false;
  const handler: ChatHandler = {
    name: 'hold',
    order,
    async handle(m) {
      if (used || !holds(m)) return false;
      used = true;
      reached();
      await gate;
      return false;
    },
  };
  return { handler, arrived, release };
}
