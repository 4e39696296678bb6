// Reading the command line so that every mistake gets one plain sentence and exit code 2, never a
// silent default or Node's parser jargon.
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** A mistake on the command line; main prints its message and exits with 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** By name: the CLI's engine half is a bundle of its own, with its own copy of the class. */
export function isUsageError(error: unknown): error is UsageError {
  return error instanceof Error && error.name === 'UsageError';
}

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * `parseArgs`, except that the word after an option that takes a value is its value even when it is
 * a negative number (`--limit -3`, which Node calls "ambiguous", reaches the flag's own check and its
 * message), an option followed by nothing or by another option says it needs a value, and unknown
 * options are UsageErrors.
 */
export function parseCommandLine<O extends Options>(argv: string[], options: O) {
  const joined: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const next = argv[i + 1];
    if (arg === '--') {
      joined.push(...argv.slice(i));
      break;
    }
    if (arg.startsWith('--') && options[arg.slice(2)]?.type === 'string') {
      if (next === undefined || (next.startsWith('-') && !/^-\d/.test(next))) throw new UsageError(`${arg} needs a value`);
      joined.push(`${arg}=${next}`);
      i++;
    } else {
      joined.push(arg);
    }
  }
  try {
    return parseArgs({ args: joined, allowPositionals: true, options });
  } catch (error) {
    // Node's first sentence names the problem ("Unknown option '--limt'."); the rest is advice about its own syntax.
    const message = (error as Error).message;
    throw new UsageError(`${message.match(/^[^\n]*?\.(?= |$)/m)?.[0] ?? message.split('\n')[0]} (cartograph --help lists the options)`);
  }
}

/** The value of a flag that takes a whole number of 1 or more; undefined when the flag is absent. */
export function positiveInteger(flag: string, raw: string | undefined, what = 'a whole number'): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw.trim());
  if (raw.trim() === '' || !Number.isSafeInteger(value) || value < 1) throw new UsageError(`--${flag} must be ${what} ≥ 1, not '${raw}'`);
  return value;
}
