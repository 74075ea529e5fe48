/** What every command of the admin command line is given and declares, and the checks they share. */
import type { parseArgs } from 'node:util';
import type { Config } from '../config';
import type { AppContext } from '../context';
import { isUuid } from '../db/ids';
import { HttpError } from '../errors';

/** Options that take a value (`--name value`), as parseArgs declares them. */
function withValues<const Name extends string>(...names: Name[]): { [N in Name]: { type: 'string' } } {
  return Object.fromEntries(names.map((name) => [name, { type: 'string' }])) as {
    [N in Name]: { type: 'string' };
  };
}

/** Every option a command may take; each command reads its own. */
export const CLI_OPTIONS = {
  ...withValues(
    'username',
    'email',
    'name',
    'password',
    'rollno',
    'to',
    'listen',
    'lectern',
    'nginx-site',
    'rtmps-cert',
    'rtmps-key',
    'from',
    'database-url',
    'media-store',
    'signing-key',
    'old-signing-key',
    'video',
    'origin',
    'courses',
    'course',
    'title',
    'description',
    'starts',
    'minutes',
  ),
  rtmp: { type: 'boolean' },
  replace: { type: 'boolean' },
  'allow-unsealed': { type: 'boolean' },
} as const;

type CliValues = ReturnType<
  typeof parseArgs<{ args: string[]; allowPositionals: true; options: typeof CLI_OPTIONS }>
>['values'];

/** What a command is given: the parsed options and the words after the command. */
export interface CliArgs {
  values: CliValues;
  positionals: string[];
}

/**
 * A command: `nothing` runs before the options are parsed and the settings loaded; `config` gets
 * the settings alone (it must work when the rest cannot start, or opens what it needs itself);
 * `runtime` gets the opened app context, closed once it returns.
 */
export type Command = { name: string; help: string } & (
  | { needs: 'nothing'; run: () => Promise<number> }
  | { needs: 'config'; run: (input: CliArgs & { config: Readonly<Config> }) => Promise<number> }
  | { needs: 'runtime'; run: (input: CliArgs & { ctx: AppContext }) => Promise<number> }
);

/** A word the command cannot do without (a name, a file); a 400 with its usage when missing. */
export function required(word: string | undefined, usage: string): string {
  if (!word) throw new HttpError(400, usage);
  return word;
}

/** Whether `--video` is absent or a video id; says why not on stderr. */
export function videoOptionValid(video: string | undefined): boolean {
  if (video === undefined || isUuid(video)) return true;
  console.error(`--video must be a video id (a UUID), not "${video}".`);
  return false;
}
