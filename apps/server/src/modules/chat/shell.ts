/**
 * `npm run chat -- --user <kickName> [--sub] "<text>"` (also `npm run admin -- chat …`): a chat
 * message as any Kick user through the chat simulator, and what the pipeline did with it.
 */
import { z } from 'zod';
import { CHAT_MESSAGE_MAX_LENGTH, kickUsername } from '@kickback/common/http/chat';
import { AppError } from '../../lib/errors';
import type { ShellCommand, ShellContext } from '../../lib/shell-command';
import { simulateChat } from './simulate';

const chatArgs = z.object({
  user: kickUsername,
  sub: z.boolean().default(false),
  text: z.string().trim().min(1, 'the message is empty').max(CHAT_MESSAGE_MAX_LENGTH),
});

/** `--user <name> [--sub] <text…>` (also `--user=<name>`); the words left are the message. */
export function chatArgv(argv: string[]): unknown {
  let user: string | undefined;
  let sub = false;
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--sub') sub = true;
    else if (arg === '--user') user = argv[++i];
    else if (arg.startsWith('--user=')) user = arg.slice('--user='.length);
    else words.push(arg);
  }
  return { user, sub, text: words.join(' ') };
}

async function postChat(ctx: ShellContext, args: z.infer<typeof chatArgs>): Promise<string> {
  if (!ctx.app) throw new AppError(500, 'The chat command needs the app.');
  const { status, entry } = await simulateChat(ctx.app, {
    username: args.user,
    subscriber: args.sub,
    content: args.text,
  });
  if (status !== 200 || !entry) return `The webhook refused the message (HTTP ${status}); the server log says why.`;
  const lines = [`${entry.kickUsername}${entry.isSubscriber ? ' (subscriber)' : ''}: ${entry.content}`];
  lines.push(entry.linkedUser ? `  linked site user: ${entry.linkedUser.username}` : '  no linked site user');
  lines.push(entry.handledBy ? `  handled by: ${entry.handledBy}` : '  no command');
  for (const reply of entry.replies) lines.push(`  reply: ${reply}`);
  for (const failed of entry.errors) lines.push(`  failed: ${failed} (see the server log)`);
  return lines.join('\n');
}

export const chatShellCommand = {
  usage: 'chat --user <kickName> [--sub] "<text>"   (also: npm run chat -- …)',
  fromArgv: chatArgv,
  args: chatArgs,
  needsApp: true,
  run: postChat,
} satisfies ShellCommand<typeof chatArgs>;
