/**
 * One webhook HTTP attempt (D82): a POST with the signed body, under the SSRF guard
 * (address-guard.ts) unless `allowPrivate`. http and https only; redirects are never followed (a
 * 3xx is a failed attempt, so a receiver cannot send Quire on to another address); the whole
 * attempt, response excerpt included, is bounded by `timeoutMs`. The guard is applied where the
 * socket gets its address: an IP literal is checked before anything is opened, and a host name
 * is resolved by the connection's own lookup, which checks every address and hands only checked
 * ones to the socket, so the address checked is the address connected to and DNS rebinding (a
 * name public when the webhook was saved, private now) cannot pass. The peer address is checked
 * once more when the socket connects. Never throws: the outcome says what happened.
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction, Socket } from 'node:net';
import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import { blockedReason } from './address-guard.js';

/**
 * Resolves a host name to all its addresses (dns.lookup's `all: true` answer). The context holds
 * one (ctx.resolveHost, `systemResolver` outside tests); tests inject their own to play DNS.
 */
export type HostResolver = (hostname: string) => Promise<dns.LookupAddress[]>;

/** The operating system's resolver (getaddrinfo, as every Node.js connection uses). */
export const systemResolver: HostResolver = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

/** Bytes of the receiver's answer kept in the delivery log. */
export const EXCERPT_BYTES = 1024;

export interface AttemptOutcome {
  /** True for a 2xx answer. */
  ok: boolean;
  statusCode: number | null;
  durationMs: number;
  /** First 1 KB of the answer body (UTF-8), null when there was no answer. */
  excerpt: string | null;
  /** Why the attempt failed (network error, refusal, timeout, non-2xx), null on success. */
  error: string | null;
}

export interface AttemptRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  allowPrivate: boolean;
  /** How host names are resolved (default systemResolver). */
  resolve?: HostResolver;
}

/** Raised (and reported as the attempt's error) when the guard refuses a target. */
export class RefusedTarget extends Error {}

/** The refusal message for `address` of `host`, or null when the guard lets it through. */
export function refusal(host: string, address: string): string | null {
  const reason = blockedReason(address);
  if (!reason) return null;
  const a = /^[aeiou]/i.test(reason) ? 'an' : 'a';
  return host === address ? `refused: ${address} is ${a} ${reason} address` : `refused: ${host} resolves to ${address}, ${a} ${reason} address`;
}

/**
 * The `lookup` of an attempt's socket: resolves with `resolve` and, when `guard`, fails with
 * RefusedTarget if any address of the host is refused (a name with one private address among
 * public ones is refused whole). Only the addresses it returns are connected to.
 */
export function connectLookup(resolve: HostResolver, guard: boolean): LookupFunction {
  return (hostname, options, callback) => {
    const answer = (list: dns.LookupAddress[]): void => {
      if (guard) {
        for (const a of list) {
          const why = refusal(hostname, a.address);
          if (why) return callback(new RefusedTarget(why), '', 4);
        }
      }
      const wanted = options.family === 4 || options.family === 6 ? list.filter((a) => a.family === options.family) : list;
      if (wanted.length === 0) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 4);
      if (options.all) return callback(null, wanted);
      callback(null, wanted[0].address, wanted[0].family);
    };
    resolve(hostname).then(answer, (err: NodeJS.ErrnoException) => callback(err, '', 4));
  };
}

/** The URL's host without IPv6 brackets. */
function bareHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/**
 * Checks a webhook URL before it is stored (create, update): http(s) only, and unless
 * `allowPrivate`, its host must be a public address or a name that resolves (with `resolve`) to
 * public addresses only. Returns why it is refused, or null. Every attempt checks again.
 */
export async function targetProblem(raw: string, allowPrivate: boolean, resolve: HostResolver = systemResolver): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute http:// or https:// URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http:// or https:// URL';
  if (allowPrivate) return null;
  const host = bareHost(url);
  if (isIP(host)) return refusal(host, host);
  try {
    const addresses = await resolve(host);
    for (const a of addresses) {
      const why = refusal(host, a.address);
      if (why) return why;
    }
    return addresses.length ? null : `${host} has no address`;
  } catch (err) {
    return `${host} does not resolve (${(err as NodeJS.ErrnoException).code ?? 'lookup failed'})`;
  }
}

/** Makes one attempt; resolves with its outcome, never rejects. */
export function attempt(req: AttemptRequest): Promise<AttemptOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined = undefined;
    const finish = (outcome: Omit<AttemptOutcome, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...outcome, durationMs: elapsed() });
    };
    const fail = (error: string, statusCode: number | null = null, excerpt: string | null = null) => finish({ ok: false, statusCode, excerpt, error });

    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      return fail('invalid URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return fail('refused: only http:// and https:// URLs are delivered');
    const host = bareHost(url);
    if (!req.allowPrivate && isIP(host)) {
      const why = refusal(host, host);
      if (why) return fail(why);
    }
    timer = setTimeout(() => {
      request.destroy(new Error(`timed out after ${req.timeoutMs} ms`));
    }, req.timeoutMs);

    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(url, {
      method: 'POST',
      headers: { ...req.headers, 'content-length': String(Buffer.byteLength(req.body)) },
      agent: false,
      lookup: connectLookup(req.resolve ?? systemResolver, !req.allowPrivate),
    });
    request.on('socket', (socket: Socket) => {
      if (req.allowPrivate) return;
      socket.once('connect', () => {
        const why = socket.remoteAddress ? refusal(host, socket.remoteAddress) : 'refused: unknown peer address';
        if (why) request.destroy(new RefusedTarget(why));
      });
    });
    request.on('error', (err) => fail(err instanceof RefusedTarget ? err.message : err.message || String(err)));
    request.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () => {
        const excerpt = Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8');
        const status = res.statusCode ?? 0;
        res.destroy();
        request.destroy();
        if (status >= 200 && status < 300) return finish({ ok: true, statusCode: status, excerpt, error: null });
        if (status >= 300 && status < 400) return fail(`redirect${res.headers.location ? ` to ${res.headers.location}` : ''} not followed`, status, excerpt);
        fail(`answered HTTP ${status}`, status, excerpt);
      };
      res.on('data', (chunk: Buffer) => {
        if (size < EXCERPT_BYTES) chunks.push(chunk);
        size += chunk.length;
        if (size >= EXCERPT_BYTES) done();
      });
      res.on('end', done);
      res.on('error', (err) => fail(err.message, res.statusCode ?? null));
    });
    request.end(req.body);
  });
}
