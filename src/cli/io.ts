/**
 * What the `quire` CLI writes and how it fails (docs/cli.md "The `quire` command line" (D61)): a
 * command returns a result
 * with a JSON shape (printed as exactly one object with `--json`) and a short human summary;
 * every failure becomes one `quire: <message>` line on stderr with exit code 1, or 2 for a usage
 * error. No stack traces: AppError and ConfigError messages are written as they are.
 */
import { ConfigError } from '../config.js';
import { AppError } from '../errors.js';

/** A writable text sink (process.stdout or a test buffer). `isTTY` enables the progress bar. */
export interface CliStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
}

export interface CliIo {
  env: Record<string, string | undefined>;
  stdout: CliStream;
  stderr: CliStream;
  /** Where a command reads secrets from (`users set-password`): process.stdin, or text in tests. */
  stdin?: AsyncIterable<string | Buffer> | string;
}

/** All of `stdin` as text (empty when there is none). */
export async function readAll(stdin: CliIo['stdin']): Promise<string> {
  if (stdin === undefined) return '';
  if (typeof stdin === 'string') return stdin;
  let out = '';
  for await (const chunk of stdin) out += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
  return out;
}

/** What a command hands back: the `--json` object and the human summary (lines, no trailing newline). */
export interface CommandResult {
  json: Record<string, unknown>;
  text: string;
  /**
   * Set when the command did its work only in part (e.g. an import with refused entries): the
   * result is still printed, then this line goes to stderr and the exit code is 1.
   */
  failure?: string;
  /** Set when the command wrote its output to stdout itself (`audit export`'s NDJSON): nothing more is printed. */
  streamed?: boolean;
}

/** A bad command line detected after parsing (e.g. an unparseable `--expires-in`): exit code 2. */
export class CliUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliUsageError';
  }
}

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** Prints a command's result (one JSON object with `--json`, else the summary); returns the exit code. */
export function printResult(io: CliIo, result: CommandResult, json: boolean): number {
  if (!result.streamed) io.stdout.write(json ? `${JSON.stringify(result.json)}\n` : `${result.text}\n`);
  if (result.failure === undefined) return EXIT_OK;
  io.stderr.write(`quire: ${result.failure}\n`);
  return EXIT_FAILURE;
}

/**
 * The one stderr line for an error, and its exit code. A VALIDATION_FAILED error lists its
 * details on the same line (`email: must be an email address; role: ...`).
 */
export function describeError(err: unknown): { line: string; code: number } {
  if (err instanceof CliUsageError) return { line: err.message, code: EXIT_USAGE };
  if (err instanceof AppError) {
    const details = err.errors?.map((e) => `${e.path}: ${e.message}`).join('; ');
    return { line: details ? `${err.message}: ${details}` : err.message, code: EXIT_FAILURE };
  }
  if (err instanceof ConfigError) return { line: err.message, code: EXIT_FAILURE };
  return { line: plainMessage(err).split('\n')[0] || 'unexpected error', code: EXIT_FAILURE };
}

/**
 * The message of any other error (a driver or file system error). A connection refused on every
 * address of a host arrives as an AggregateError without a message of its own: its first inner
 * error says what happened.
 */
function plainMessage(err: unknown): string {
  if (err instanceof AggregateError && !err.message && err.errors.length) return plainMessage(err.errors[0]);
  if (err instanceof Error) return err.message || (err as NodeJS.ErrnoException).code || err.name;
  return String(err);
}
