/**
 * Test helpers for Studio sessions: a `Browser` that keeps the `quire_session` cookie and the
 * CSRF token like the Studio does, sends requests from its own client address (so the sign-in
 * throttle of one test does not leak into another), and a member with a password.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Context } from '../src/context.js';
import { createMember } from '../src/modules/auth/operations.js';
import { setPasswordForUser } from '../src/modules/auth/sessions.js';
import type { Res } from './helpers.js';

let addressCounter = 0;
/** A fresh client address per browser (10.x.y.z). */
export function nextAddress(): string {
  addressCounter += 1;
  return `10.${(addressCounter >> 16) & 255}.${(addressCounter >> 8) & 255}.${addressCounter & 255}`;
}

/** The `quire_session` Set-Cookie line of a response, or undefined. */
export function sessionCookieLine(res: Res): string | undefined {
  const raw = res.headers['set-cookie'];
  const lines = Array.isArray(raw) ? raw : raw ? [raw] : [];
  return lines.find((l) => l.startsWith('quire_session='));
}

export class Browser {
  cookie: string | null = null;
  csrf: string | null = null;
  workspaceId: string | null = null;
  readonly address: string;

  constructor(
    readonly app: FastifyInstance,
    address?: string,
  ) {
    this.address = address ?? nextAddress();
  }

  /** Sends a request with the cookie, X-CSRF-Token (unless `csrf: false` or given) and X-Workspace-ID; keeps a new cookie. */
  async call(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    opts: { body?: unknown; headers?: Record<string, string>; csrf?: boolean } = {},
  ): Promise<Res> {
    const headers: Record<string, string> = {};
    if (this.cookie) headers.cookie = `quire_session=${this.cookie}`;
    if (this.csrf && opts.csrf !== false && method !== 'GET') headers['x-csrf-token'] = this.csrf;
    if (this.workspaceId) headers['x-workspace-id'] = this.workspaceId;
    Object.assign(headers, opts.headers ?? {});
    let payload: string | undefined;
    if (opts.body !== undefined) {
      payload = JSON.stringify(opts.body);
      headers['content-type'] = 'application/json';
    }
    const res = await this.app.inject({ method, url, headers, payload, remoteAddress: this.address });
    let body: unknown = res.body;
    try {
      body = JSON.parse(res.body);
    } catch {
      /* not JSON */
    }
    const out: Res = { status: res.statusCode, body, headers: res.headers as Res['headers'] };
    const line = sessionCookieLine(out);
    if (line) {
      const value = line.slice('quire_session='.length, line.indexOf(';'));
      this.cookie = value === '' ? null : value;
    }
    const data = (body as { data?: { csrf_token?: string } } | null)?.data;
    if (out.status === 200 && data && typeof data.csrf_token === 'string') this.csrf = data.csrf_token;
    return out;
  }

  async signIn(email: string, password: string): Promise<Res> {
    return this.call('POST', '/api/v1/manage/session', { body: { email, password } });
  }
}

export const PASSWORD = 'correct horse battery staple';

/** A new member of `workspaceSlug` with `role` and the password PASSWORD; returns their id and email. */
export async function memberWithPassword(ctx: Context, workspaceSlug: string, role: string, email?: string): Promise<{ id: number; email: string }> {
  const m = await createMember(ctx, workspaceSlug, email ?? `${role}-${randomBytes(4).toString('hex')}@example.com`, role);
  await setPasswordForUser(ctx, m.id, PASSWORD);
  return { id: m.id, email: m.email };
}

/** A browser signed in as `email` with PASSWORD (throws unless 200). */
export async function signedIn(app: FastifyInstance, email: string, workspaceId?: string): Promise<Browser> {
  const b = new Browser(app);
  const res = await b.signIn(email, PASSWORD);
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(res.body)}`);
  if (workspaceId) b.workspaceId = workspaceId;
  return b;
}
