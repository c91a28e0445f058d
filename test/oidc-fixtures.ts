/**
 * A real OpenID provider on loopback for the single sign-on suites (D121): oidc-provider on port
 * 0 with one confidential client registered for Quire and the accounts a suite gives it, and a
 * walker that goes through its login and consent pages by HTTP (fetch, cookies carried by hand)
 * the way a browser would.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export const CLIENT_ID = 'quire-studio';
export const CLIENT_SECRET = 'a client secret of thirty-two chars!';

/** An account of the test provider: its claims (sub is the login name). */
export type AccountClaims = { email?: string; email_verified?: boolean; name?: string; groups?: string[] };

export interface TestProvider {
  issuer: string;
  /** The provider's accounts by login name; a suite may add more before a flow. */
  accounts: Map<string, AccountClaims>;
  close(): Promise<void>;
}

export interface OpenedProvider extends TestProvider {
  /**
   * Registers the client (its redirect URIs) and starts answering. Apart from startProvider so
   * that a Quire started later (on a port not known before) can be named: the issuer's URL is
   * known from the moment it listens.
   */
  serve(redirectUris: string[]): void;
}

/** Listens on 127.0.0.1:0 with no provider behind it yet (503) until `serve`. */
export async function openProvider(accounts: Record<string, AccountClaims>): Promise<OpenedProvider> {
  const server = http.createServer((_req, res) => res.writeHead(503).end('not serving yet'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const table = new Map(Object.entries(accounts));
  return {
    issuer,
    accounts: table,
    serve: (redirectUris) => {
      const provider = new Provider(issuer, {
        clients: [
          {
            client_id: CLIENT_ID,
            client_secret: CLIENT_SECRET,
            redirect_uris: redirectUris,
            grant_types: ['authorization_code'],
            response_types: ['code'],
            token_endpoint_auth_method: 'client_secret_basic',
          },
        ],
        claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'groups'] },
        findAccount: (_ctx, id) => {
          const claims = table.get(id);
          if (!claims) return undefined;
          return { accountId: id, claims: () => ({ sub: id, ...claims }) };
        },
        pkce: { required: () => true },
        cookies: { keys: ['test cookie signing key, loopback only'] },
        features: { devInteractions: { enabled: true } },
        // Explicit lifetimes (the defaults print a notice each).
        ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600 },
      });
      server.removeAllListeners('request');
      server.on('request', provider.callback());
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Starts the provider on 127.0.0.1:0 with a client whose redirect URIs are `redirectUris`. */
export async function startProvider(redirectUris: string[], accounts: Record<string, AccountClaims>): Promise<TestProvider> {
  const provider = await openProvider(accounts);
  provider.serve(redirectUris);
  return provider;
}

/** A cookie jar of one host: name → value. */
class Jar {
  private readonly cookies = new Map<string, string>();

  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const name = pair.slice(0, pair.indexOf('=')).trim();
      const value = pair.slice(pair.indexOf('=') + 1).trim();
      const expired = attrs.some((a) => /^\s*expires=Thu, 01 Jan 1970/i.test(a)) || attrs.some((a) => /^\s*max-age=0/i.test(a));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([n, v]) => `${n}=${v}`).join('; ');
  }
}

/**
 * Walks the provider from an authorization URL to the redirect back to Quire: follows its
 * redirects, fills its login form with `login` (any password) and its consent form. Returns the
 * URL the provider sends the browser back to (the redirect URI with code and state, or error).
 */
export async function walkProvider(authorizationUrl: string, login: string, stopAt: string): Promise<URL> {
  const jar = new Jar();
  let url = new URL(authorizationUrl);
  let method = 'GET';
  let body: string | undefined;
  for (let step = 0; step < 20; step += 1) {
    const res = await fetch(url, {
      method,
      redirect: 'manual',
      headers: { cookie: jar.header(), ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      body,
    });
    jar.take(res);
    method = 'GET';
    body = undefined;
    if (res.status >= 300 && res.status < 400) {
      url = new URL(res.headers.get('location')!, url);
      if (url.href.startsWith(stopAt)) return url;
      continue;
    }
    const html = await res.text();
    if (res.status !== 200) throw new Error(`the provider answered ${res.status} at ${url.href}: ${html.slice(0, 300)}`);
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    const prompt = /name="prompt" value="([^"]+)"/.exec(html)?.[1];
    if (!action || !prompt) throw new Error(`no login or consent form at ${url.href}: ${html.slice(0, 300)}`);
    url = new URL(action.replace(/&amp;/g, '&'), url);
    method = 'POST';
    body = new URLSearchParams(prompt === 'login' ? { prompt, login, password: 'any password' } : { prompt }).toString();
  }
  throw new Error('the provider did not send the browser back within 20 steps');
}
