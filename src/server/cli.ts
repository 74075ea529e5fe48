import { parseArgs } from 'node:util';
import { BackupError } from './backup';
import { CLI_OPTIONS } from './cli/command';
import { COMMANDS, USAGE } from './cli-commands';
import { ConfigError, loadConfig } from './config';
import { DatabaseInUseError } from './db/embedded-lock';
import { SchemaTooNewError } from './db/migration-state';
import { HttpError } from './errors';
import { createLogger, openRuntime } from './runtime';

/** Runs one command of the table (cli-commands.ts); resolves to the exit code. */
async function run(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || ['--help', '-h'].includes(name) || rest.includes('--help')) {
    console.log(USAGE);
    return name ? 0 : 2;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    console.error(`Unknown command "${name}".\n\n${USAGE}`);
    return 2;
  }
  // help: before the options are parsed and the settings loaded.
  if (command.needs === 'nothing') return command.run();
  const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: CLI_OPTIONS });
  const config = loadConfig({ ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' });
  if (command.needs === 'config') return command.run({ config, values, positionals });
  const runtime = await openRuntime(config, { logger: createLogger({ ...config, logLevel: 'warn' }) });
  try {
    return await command.run({ ctx: runtime.ctx, values, positionals });
  } finally {
    await runtime.close();
  }
}

run(process.argv.slice(2))
  .then((code) => process.exit(code))
  .catch((error: unknown) => {
    const usageError = (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    if (usageError) {
      console.error(`${(error as Error).message}\n\n${USAGE}`);
    } else if (
      error instanceof HttpError ||
      error instanceof ConfigError ||
      error instanceof DatabaseInUseError ||
      error instanceof SchemaTooNewError ||
      error instanceof BackupError
    ) {
      console.error(error.message);
    } else {
      console.error(error);
    }
    process.exit(2);
  });
