/**
 * `npm run admin -- <command> …`: operator commands (roles, balances, …). See `npm run admin` for
 * the list.
 */
import { isShellCommand, shellCommands } from '../modules/shell/commands';
import { cliMain } from './run-command';

const [command, ...rest] = process.argv.slice(2);
if (!command || !isShellCommand(command)) {
  console.error('Usage: npm run admin -- <command>\n');
  for (const c of Object.values(shellCommands)) console.error(`  ${c.usage}`);
  process.exitCode = command ? 1 : 0;
} else {
  await cliMain(command, shellCommands[command].fromArgv(rest));
}
