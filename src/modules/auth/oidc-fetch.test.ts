/**
 * The outbound guard of single sign-on (D121; docs/access.md "How the flow is protected"): the
 * issuer's own host is reached wherever it is; any other host must be public; no redirects.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CustomFetchOptions } from 'openid-client';
import { guardedFetch } from './oidc-fetch.js';
import type { HostResolver } from '../webhooks/http-client.js';

const GET: CustomFetchOptions = { method: 'GET', headers: { accept: 'application/json' }, body: undefined as never, redirect: 'manual' };
/** A resolver that puts every name on loopback (as a DNS answer could). */
const toLoopback: HostResolver = async () => [{ address: '127.0.0.1', family: 4 }];

describe('guardedFetch', () => {
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/redirect') {
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
        return;
      }
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ method: req.method, body })));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('reaches the issuer host on loopback and posts form bodies', async () => {
    const fetch = guardedFetch('127.0.0.1', toLoopback);
    const res = await fetch(`http://127.0.0.1:${port}/x`, GET);
    expect(await res.json()).toEqual({ method: 'GET', body: '' });
    const post = await fetch(`http://127.0.0.1:${port}/token`, { ...GET, method: 'POST', body: new URLSearchParams({ code: 'c' }) });
    expect(await post.json()).toEqual({ method: 'POST', body: 'code=c' });
  });

  it('refuses other hosts on non-public addresses, by literal or by name', async () => {
    const fetch = guardedFetch('sso.example.com', toLoopback);
    await expect(fetch(`http://127.0.0.1:${port}/x`, GET)).rejects.toThrow('refused: 127.0.0.1 is a loopback address');
    await expect(fetch(`http://keys.example.net:${port}/x`, GET)).rejects.toThrow('refused: keys.example.net resolves to 127.0.0.1, a loopback address');
    await expect(fetch('http://169.254.169.254/latest/meta-data/', GET)).rejects.toThrow(/link-local/);
    await expect(fetch('file:///etc/passwd', GET)).rejects.toThrow('refused: file: URLs are not fetched');
  });

  it('answers a redirect as it is, never following it', async () => {
    const res = await guardedFetch('127.0.0.1', toLoopback)(`http://127.0.0.1:${port}/redirect`, GET);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('http://169.254.169.254/latest/meta-data/');
  });
});
