/**
 * The admin command line's commands (`npm run cli -- <command>`, run by cli.ts), in the order the
 * usage text lists them. Each lives in one place in cli/, by subject, with its help line, what it
 * needs opened (nothing, the settings alone, or the runtime) and what it does.
 */
import { ACCOUNT_COMMANDS } from './cli/account-commands';
import type { Command } from './cli/command';
import { LIVE_COMMANDS } from './cli/live-commands';
import { MEDIA_COMMANDS } from './cli/media-commands';
import { OPERATIONS_COMMANDS } from './cli/operations-commands';

export const COMMANDS: readonly Command[] = [
  ...ACCOUNT_COMMANDS,
  ...MEDIA_COMMANDS,
  ...LIVE_COMMANDS,
  ...OPERATIONS_COMMANDS,
  {
    name: 'help',
    help: 'Show this list',
    needs: 'nothing',
    async run() {
      console.log(USAGE);
      return 0;
    },
  },
];

const NAME_WIDTH = Math.max(...COMMANDS.map(({ name }) => name.length));

export const USAGE = `Usage: npm run cli -- <command> [options]

Commands:
${COMMANDS.map(({ name, help }) => `  ${name.padEnd(NAME_WIDTH)}  ${help}`).join('\n')}

A student created without a password gets a random one by e-mail, with their username.
The settings are the server's environment variables (DATA_DIR, DATABASE_URL, SMTP_URL...):
see .env.example.`;
