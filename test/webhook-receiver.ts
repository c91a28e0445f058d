/**
 * A real webhook receiver for tests: a node:http server on 127.0.0.1 that records every request
 * (headers and raw body) and answers with the status `respond` picks (default 200), so suites
 * can make it fail and recover. `verify` checks a request with standardwebhooks' Webhook.verify.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  headers: Record<string, string>;
  body: string;
  json: any;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Status to answer the n-th request (0-based) with; replaceable. */
  respond: (n: number, req: Received) => number;
  /** Resolves when at least `count` requests satisfying `filter` arrived (rejects after `ms`). */
  waitFor(count: number, filter?: (r: Received) => boolean, ms?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
      let json: unknown = null;
      try {
        json = JSON.parse(body);
      } catch {
        /* keep null */
      }
      const entry = { headers, body, json };
      const status = receiver.respond(received.length, entry);
      received.push(entry);
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'thanks' : 'x'.repeat(3000));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const receiver: Receiver = {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    respond: () => 200,
    async waitFor(count, filter = () => true, ms = 10_000) {
      const deadline = Date.now() + ms;
      for (;;) {
        const hits = received.filter(filter);
        if (hits.length >= count) return hits;
        if (Date.now() > deadline) throw new Error(`receiver got ${hits.length} of ${count} expected requests in ${ms} ms`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return receiver;
}

/** Verifies a received request's Standard Webhooks signature with `secret`; returns the parsed body. */
export function verify(secret: string, r: Received): unknown {
  return new Webhook(secret).verify(r.body, r.headers);
}
