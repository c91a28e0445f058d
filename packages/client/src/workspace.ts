/**
 * The workspace's people, API keys, settings and overview (docs/api.md "Studio sessions, people,
 * keys and workspace"). People, keys and changing the settings are for owners and admins signed
 * in to the Studio: such calls need a client on a session (`credentials` and the CSRF header in
 * `headers`), and an API key gets 403. Reading the settings and the overview takes any management
 * key.
 */
import { readData, seg, writeData, writeOnce, type ReadOptions, type WriteOptions } from './calls.js';
import type { Transport } from './transport.js';
import type { WireBody, WireData } from './wire.js';

const BASE = '/api/v1/manage';

/** A member or a pending invitation of the workspace. */
export type Member = WireData<'/api/v1/manage/users', 'get'>[number];
/** Body of an invitation: `{email, role, name?}`. */
export type InvitationInput = WireBody<'/api/v1/manage/users/invitations', 'post'>;
/** An invitation's answer: the pending member, and the link when it was not emailed. */
export type Invitation = WireData<'/api/v1/manage/users/invitations', 'post'>;
export type MemberRole = WireBody<'/api/v1/manage/users/{id}', 'patch'>['role'];
/** An API key as listed: its hint, never its value. */
export type ApiKey = WireData<'/api/v1/manage/api-keys', 'get'>[number];
/** Body of a key's creation: a delivery key (environment, content types) or a management key (scopes, expiry). */
export type ApiKeyCreate = WireBody<'/api/v1/manage/api-keys', 'post'>;
/** A created key with its value (`key`), shown only in this answer. */
export type CreatedApiKey = WireData<'/api/v1/manage/api-keys', 'post'>;
/** The workspace's settings: name, slug, locales, default locale, preview URL template. */
export type WorkspaceSettings = WireData<'/api/v1/manage/workspace', 'get'>;
export type WorkspaceUpdate = WireBody<'/api/v1/manage/workspace', 'patch'>;
/** The Studio's home: counts per content type and of pages, recent versions, coming publications. */
export type Overview = WireData<'/api/v1/manage/overview', 'get'>;

/** People of the workspace: `client.manage.people` (session only). */
export class ManagedPeople {
  constructor(private readonly t: Transport) {}

  /** Members and pending invitations. */
  async list(options?: ReadOptions): Promise<Member[]> {
    return readData(this.t, `${BASE}/users`, undefined, options);
  }

  /** Invites an email with a role (owners and admins); the answer holds the link when no email was sent. */
  async invite(input: InvitationInput, options?: WriteOptions): Promise<Invitation> {
    return writeData(this.t, 'POST', `${BASE}/users/invitations`, input, options);
  }

  /** Cancels a pending invitation. */
  async cancelInvitation(invitationId: string, options?: WriteOptions): Promise<void> {
    await writeData(this.t, 'DELETE', `${BASE}/users/invitations/${seg(invitationId)}`, undefined, options);
  }

  /** Changes a member's role. */
  async changeRole(userId: number, role: MemberRole, options?: WriteOptions): Promise<Member> {
    return writeData(this.t, 'PATCH', `${BASE}/users/${userId}`, { role }, options);
  }

  /** Removes a member from the workspace (their account stays). */
  async remove(userId: number, options?: WriteOptions): Promise<void> {
    await writeData(this.t, 'DELETE', `${BASE}/users/${userId}`, undefined, options);
  }
}

/** API keys of the workspace: `client.manage.apiKeys` (session only). */
export class ManagedApiKeys {
  constructor(private readonly t: Transport) {}

  /** Every key, revoked ones included, with a hint of its value. */
  async list(options?: ReadOptions): Promise<ApiKey[]> {
    return readData(this.t, `${BASE}/api-keys`, undefined, options);
  }

  /** Creates a key acting for you; its value is in this answer only (sent once, never resent). */
  async create(input: ApiKeyCreate, options?: ReadOptions): Promise<CreatedApiKey> {
    return writeOnce(this.t, `${BASE}/api-keys`, input, options);
  }

  /** Revokes a key: it is refused from then on. */
  async revoke(id: string, options?: WriteOptions): Promise<void> {
    await writeData(this.t, 'DELETE', `${BASE}/api-keys/${seg(id)}`, undefined, options);
  }
}

/** The workspace's settings and overview: `client.manage.workspace`. */
export class ManagedWorkspace {
  constructor(private readonly t: Transport) {}

  /** The settings (any management key). */
  async get(options?: ReadOptions): Promise<WorkspaceSettings> {
    return readData(this.t, `${BASE}/workspace`, undefined, options);
  }

  /** Changes name, locales, default locale (only while the workspace is empty) or preview URL template (owners and admins, session only). */
  async update(patch: WorkspaceUpdate, options?: WriteOptions): Promise<WorkspaceSettings> {
    return writeData(this.t, 'PATCH', `${BASE}/workspace`, patch, options);
  }

  /** Counts by status, the 20 newest versions and the 20 soonest publications. */
  async overview(options?: ReadOptions): Promise<Overview> {
    return readData(this.t, `${BASE}/overview`, undefined, options);
  }
}
