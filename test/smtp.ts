/**
 * A local SMTP server for tests (the `smtp-server` package, no TLS, no auth) that keeps every
 * message it accepts, so suites can read what Quire e-mailed.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One accepted message: envelope and raw data (headers and body as sent). */
export interface CapturedMail {
  from: string;
  to: string[];
  data: string;
}

/** A running test SMTP server. */
export interface TestSmtp {
  url: string;
  messages: CapturedMail[];
  /** Resolves once `count` messages have arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<CapturedMail[]>;
  close(): Promise<void>;
}

/** Starts a server on 127.0.0.1 at a free port. */
export async function startSmtp(): Promise<TestSmtp> {
  const messages: CapturedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          data: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async waitFor(count, timeoutMs = 5_000) {
      const until = Date.now() + timeoutMs;
      while (messages.length < count) {
        if (Date.now() > until) throw new Error(`expected ${count} e-mails, got ${messages.length}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return messages;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
