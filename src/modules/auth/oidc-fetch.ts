/**
 * The outbound HTTP of single sign-on (D121; docs/access.md "Single sign-on"): discovery, the
 * token exchange, the provider's keys and userinfo, as the `customFetch` of openid-client. It
 * follows the rule of every request Quire makes on its own (the webhooks' SSRF guard, D82):
 *
 * - the issuer's own host (OIDC_ISSUER, an operator's explicit choice) is reached at whatever
 *   address it has: a provider on loopback or on a private network works when named there;
 * - any other host a discovery document names (a separate JWKS or token host) must resolve to
 *   public unicast addresses only, checked on the address connected to (the webhooks'
 *   address guard and connection lookup), so a document cannot send Quire to cloud metadata
 *   or a service on a private address;
 * - redirects are never followed (openid-client asks for `redirect: manual`; a 3xx is answered
 *   as is and fails the step), answers are capped at MAX_ANSWER_BYTES and http(s) only.
 *
 * Errors: rejects with an Error naming the refusal or the network failure; openid-client turns it
 * into a failed sign-in.
 */
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { CustomFetch } from 'openid-client';
import { connectLookup, refusal, type HostResolver } from '../webhooks/http-client.js';

/** Discovery documents and key sets are a few KB; more is refused. */
export const MAX_ANSWER_BYTES = 1024 * 1024;

function bareHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/** A fetch for openid-client that lets `issuerHost` through and guards every other host. */
export function guardedFetch(issuerHost: string, resolve: HostResolver): CustomFetch {
  const trusted = issuerHost.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  return (raw, options) =>
    new Promise<Response>((resolvePromise, reject) => {
      const url = new URL(raw);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return reject(new Error(`refused: ${url.protocol} URLs are not fetched`));
      const host = bareHost(url).toLowerCase();
      const guard = host !== trusted;
      if (guard && isIP(host)) {
        const why = refusal(host, host);
        if (why) return reject(new Error(why));
      }
      const body = options.body === undefined || options.body === null ? undefined : bodyText(options.body);
      const headers: Record<string, string> = { ...options.headers };
      if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
      const request = (url.protocol === 'https:' ? https : http).request(url, {
        method: options.method,
        headers,
        agent: false,
        lookup: connectLookup(resolve, guard),
        signal: options.signal,
      });
      request.on('error', reject);
      request.on('response', (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) {
            res.destroy();
            request.destroy();
            return reject(new Error(`${url.host} answered more than ${MAX_ANSWER_BYTES} bytes`));
          }
          chunks.push(chunk);
        });
        res.on('error', reject);
        res.on('end', () => {
          const answerHeaders = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            if (value === undefined) continue;
            for (const v of Array.isArray(value) ? value : [value]) answerHeaders.append(name, v);
          }
          const status = res.statusCode ?? 502;
          const nullBody = status === 204 || status === 304;
          resolvePromise(new Response(nullBody ? null : Buffer.concat(chunks), { status, statusText: res.statusMessage, headers: answerHeaders }));
        });
      });
      request.end(body);
    });
}

/** The request bodies openid-client sends: form parameters or JSON text. */
function bodyText(body: unknown): string {
  if (typeof body === 'string') return body;
  if (body instanceof URLSearchParams) return body.toString();
  if (body instanceof Uint8Array) return Buffer.from(body).toString('utf8');
  if (body instanceof ArrayBuffer) return Buffer.from(body).toString('utf8');
  throw new Error('unsupported request body');
}
