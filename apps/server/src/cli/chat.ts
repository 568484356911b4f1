/**
 * `npm run chat -- --user <kickName> [--sub] "<text>"`: posts a chat message as any Kick user
 * through the chat simulator (signed like Kick, delivered to the webhook) and prints what the
 * pipeline did. Goes through the running server when one holds the embedded database.
 */
import { shellCommands } from '../modules/shell/commands';
import { cliMain } from './run-command';

const argv = process.argv.slice(2);
if (argv.length === 0 || argv.includes('--help')) {
  console.error('Usage: npm run chat -- --user <kickName> [--sub] "<text>"');
  console.error('  e.g. npm run chat -- --user vexfan --sub "!verify ABC123"');
  process.exitCode = argv.length === 0 ? 1 : 0;
} else {
  await cliMain('chat', shellCommands.chat.fromArgv(argv));
}
