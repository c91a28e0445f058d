/**
 * Studio sessions (`client.manage.session`, docs/api.md "Sign-in and passwords"): signing in
 * with an email and password, the session's person, workspaces and CSRF token, signing out,
 * one-time links (setup and invitations) and password changes. A session lives in a cookie, so
 * the client needs `credentials: 'include'` (or 'same-origin') in a browser, and every write
 * other than these needs the session's `csrf_token` as `X-CSRF-Token` (the `headers` option).
 * Sign-in, password and invitation calls are sent once, never resent: each counts against the
 * sign-in throttle or spends a one-time token.
 */
import { readData, writeData, writeOnce, type ReadOptions, type WriteOptions } from './calls.js';
import type { Transport } from './transport.js';
import type { WireBody, WireData } from './wire.js';

const BASE = '/api/v1/manage/session';

/** `{user, workspaces (with role and capabilities), csrf_token}`. */
export type SessionInfo = WireData<'/api/v1/manage/session', 'get'>;
/** What a one-time link is for: setup or invitation, its email and workspace, when it expires. */
export type OneTimeToken = WireData<'/api/v1/manage/session/token', 'get'>;
/** Body of a password change: the new password with a one-time token, or with the current password on a session. */
export type PasswordInput = WireBody<'/api/v1/manage/session/password', 'post'>;
export type PasswordResult = WireData<'/api/v1/manage/session/password', 'post'>;
export type AcceptedInvitation = WireData<'/api/v1/manage/session/invitations/accept', 'post'>;

/** Studio sessions: `client.manage.session`. */
export class ManagedSession {
  constructor(private readonly t: Transport) {}

  /** Signs in (429 RATE_LIMITED after repeated failures); the session cookie comes with the answer. */
  async signIn(email: string, password: string, options?: ReadOptions): Promise<SessionInfo> {
    return writeOnce(this.t, BASE, { email, password }, options);
  }

  /** The signed-in person, their workspaces and the CSRF token (401 without a session). */
  async get(options?: ReadOptions): Promise<SessionInfo> {
    return readData(this.t, BASE, undefined, options);
  }

  /** Signs out: the session ends on the server. */
  async signOut(options?: WriteOptions): Promise<void> {
    await writeData(this.t, 'DELETE', BASE, undefined, options);
  }

  /** What a one-time link's token is for (no key or session needed). */
  async describeToken(token: string, options?: ReadOptions): Promise<OneTimeToken> {
    return readData(this.t, `${BASE}/token`, { token }, options);
  }

  /** Sets a password with a one-time token (setup, a new account's invitation), or changes one on a session. */
  async setPassword(input: PasswordInput, options?: ReadOptions): Promise<PasswordResult> {
    return writeOnce(this.t, `${BASE}/password`, input, options);
  }

  /** Accepts an invitation with its link's token, signed in as the invited email. */
  async acceptInvitation(token: string, options?: ReadOptions): Promise<AcceptedInvitation> {
    return writeOnce(this.t, `${BASE}/invitations/accept`, { token }, options);
  }
}
