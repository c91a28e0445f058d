/**
 * The one logger of a Quire process (pino), shared by the HTTP layer (Fastify's
 * `loggerInstance`), the jobs and the CLI. Secrets never reach a log line (issue 8):
 * - request lines carry the URL with the values of secret-bearing query parameters replaced by
 *   `[redacted]` (preview tokens travel as `?token=`, single sign-on codes as `?code=`), and no
 *   headers at all;
 * - fields named like secrets (`authorization`, `x-api-key`, `cookie`, `password`, `secret`,
 *   `token`, `api_key`, `session_id`) are censored wherever a caller logs them, up to three levels
 *   down;
 * - errors are logged by message and stack, which never carry parameter values (neither
 *   node-postgres nor better-sqlite3 put bound values in messages).
 */
import pino, { type DestinationStream, type Logger } from 'pino';

/** Query parameters whose value is a credential, compared case-insensitively. */
export const SECRET_QUERY_PARAMS: ReadonlySet<string> = new Set([
  'token',
  'key',
  'api_key',
  'apikey',
  'access_token',
  'secret',
  'password',
  'session',
  'session_id',
  'signature',
  'sig',
  // The authorization code of single sign-on's callback (single use, bound to PKCE, still a credential).
  'code',
]);

const REDACTED = '[redacted]';
const SECRET_FIELDS = ['authorization', 'x-api-key', 'cookie', 'set-cookie', 'password', 'secret', 'token', 'api_key', 'apiKey', 'session_id', 'sessionId'];

/** `url` (path and query, as on the request line) with the values of secret parameters redacted. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const parts = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const rawName = eq < 0 ? pair : pair.slice(0, eq);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      } catch {
        // A malformed escape: judge the raw name.
      }
      return eq >= 0 && SECRET_QUERY_PARAMS.has(name.toLowerCase()) ? `${rawName}=${REDACTED}` : pair;
    });
  return `${url.slice(0, q)}?${parts.join('&')}`;
}

/** What a request line logs: method, redacted URL, host and client address; never headers. */
function serializeRequest(req: { method?: string; url?: string; host?: string; ip?: string; socket?: { remotePort?: number } }) {
  return {
    method: req.method,
    url: typeof req.url === 'string' ? redactUrl(req.url) : req.url,
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

/** The process logger at `level`, writing to `stream` (stdout by default). */
export function createLogger(level: string, stream?: DestinationStream): Logger {
  const paths = SECRET_FIELDS.flatMap((f) => {
    const key = `["${f}"]`;
    return [key, `*${key}`, `*.*${key}`];
  });
  return pino({ level, serializers: { req: serializeRequest, err: pino.stdSerializers.err }, redact: { paths, censor: REDACTED } }, stream);
}

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/** See lazyChildLogger; methods on the prototype, so a request pays for one small object. */
class LazyChild {
  #child: Logger | undefined;

  constructor(
    private readonly parent: Logger,
    private readonly childBindings: pino.Bindings,
    private readonly options: pino.ChildLoggerOptions,
  ) {}

  #real(): Logger {
    return (this.#child ??= this.parent.child(this.childBindings, this.options));
  }

  #log(level: Level, args: unknown[]): void {
    if (!(this.#child ?? this.parent).isLevelEnabled(level)) return;
    (this.#real()[level] as (...a: unknown[]) => void)(...args);
  }

  fatal(...args: unknown[]): void {
    this.#log('fatal', args);
  }
  error(...args: unknown[]): void {
    this.#log('error', args);
  }
  warn(...args: unknown[]): void {
    this.#log('warn', args);
  }
  info(...args: unknown[]): void {
    this.#log('info', args);
  }
  debug(...args: unknown[]): void {
    this.#log('debug', args);
  }
  trace(...args: unknown[]): void {
    this.#log('trace', args);
  }
  silent(): void {}

  child(bindings: pino.Bindings, options?: pino.ChildLoggerOptions): Logger {
    return this.#real().child(bindings, options);
  }
  isLevelEnabled(level: string): boolean {
    return (this.#child ?? this.parent).isLevelEnabled(level);
  }
  bindings(): pino.Bindings {
    return this.#real().bindings();
  }
  flush(cb?: (err?: Error) => void): void {
    this.parent.flush(cb);
  }
  get level(): string {
    return (this.#child ?? this.parent).level;
  }
  set level(value: string) {
    this.#real().level = value;
  }
}

/**
 * A request's logger (Fastify's `childLoggerFactory`) that creates its pino child, with the
 * request's bindings (its id), only when something is logged at an enabled level: creating the
 * child passes the bindings through the redaction paths above, which cost about 4% of the CPU of
 * a cached delivery answer, and at the default level (`warn`) nearly no request logs anything.
 * Routes with their own `logLevel` (options.level) get their child at once. Methods, `child`,
 * `level`, `isLevelEnabled` and `bindings` behave as the child's would.
 */
export function lazyChildLogger(parent: Logger, bindings: pino.Bindings, options: pino.ChildLoggerOptions): Logger {
  if (options.level !== undefined) return parent.child(bindings, options);
  return new LazyChild(parent, bindings, options) as unknown as Logger;
}
