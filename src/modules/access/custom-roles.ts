/**
 * Custom roles per workspace (D120; docs/access.md "Roles and permissions", docs/api.md "Roles"):
 * `GET|POST /roles`, `GET|PATCH|DELETE /roles/{id}`, owners and admins in a Studio session
 * (actions `roles:list` and `roles:write`, like the other D91 session-only actions). The five
 * presets are listed with their permissions and are read-only (PATCH and DELETE answer 403).
 * A role in use by a member or a pending invitation cannot be deleted (409 ROLE_IN_USE).
 * Permissions name real things: an unknown resource, action, content type, locale or field, or a
 * limit the resource does not take, is 400 VALIDATION_FAILED with the path of each problem.
 */
import type { Context } from '../../context.js';
import { withTransaction } from '../../db/transaction.js';
import type { Db } from '../../db/types.js';
import { lockRows } from '../../db/lock.js';
import { AppError, notFound, validationError, type ErrorDetail } from '../../errors.js';
import { newId } from '../../lib/ids.js';
import { iso } from '../../lib/time.js';
import { recordAudit } from '../audit/record.js';
import type { Actor } from '../auth/permissions.js';
import type { ContentType } from '../content-types/model.js';
import { listAllContentTypes } from '../content-types/repository.js';
import { findWorkspaceById } from '../workspaces/repository.js';
import { authorize } from './authorize.js';
import { customRoleNameTaken, deleteCustomRole, insertCustomRole, roleUse, updateCustomRole, type CustomRoleValues } from './custom-role-rows.js';
import {
  actionsOf,
  LIMITS_OF,
  PERMISSION_ACTIONS,
  RESOURCES,
  scopesOfPermissions,
  type Permission,
  type PermissionAction,
  type PermissionResource,
} from './permission-rules.js';
import { rolesOfWorkspace } from './repository.js';
import { PRESET_ROLES, type RoleRow } from './roles.js';

/** A role on the wire. */
export interface RoleWire {
  id: string;
  name: string;
  description: string;
  preset: boolean;
  permissions: Permission[];
}

export interface RoleInput {
  name?: string;
  description?: string;
  permissions?: unknown[];
}

const MAX_PERMISSIONS = 50;

function present(row: RoleRow): RoleWire {
  return { id: row.name, name: row.label, description: row.description, preset: row.preset, permissions: row.permissions.map((p) => ({ ...p })) };
}

/** The workspace's roles: presets first, then custom roles by creation. */
async function workspaceRoles(ctx: Context, workspaceId: string): Promise<RoleRow[]> {
  return (await rolesOfWorkspace(ctx, workspaceId)).rows.filter((r) => r.workspaceId === null || r.workspaceId === workspaceId);
}

async function requireRole(ctx: Context, actor: Actor, ref: string): Promise<RoleRow> {
  const rows = await workspaceRoles(ctx, actor.workspaceId);
  const row = rows.find((r) => r.name === ref) ?? rows.find((r) => !r.preset && r.label === ref);
  if (!row) throw notFound(`role '${ref}'`);
  return row;
}

/** The audit row of a role write (D122). */
function recordRole(db: Db, actor: Actor, at: Date | string, action: string, id: string, name: string, changedFields?: readonly string[]): Promise<void> {
  return recordAudit(db, { workspaceId: actor.workspaceId, at, actor, action, target: { kind: 'role', id, slug: name }, changedFields });
}

function wireOf(id: string, values: CustomRoleValues): RoleWire {
  return { id, name: values.name, description: values.description, preset: false, permissions: JSON.parse(values.permissions) as Permission[] };
}

/**
 * The custom role `ref` names, inside a transaction holding the workspace's row (the people
 * operations lock the same row before they give a role, so none is given meanwhile); a preset
 * answers 403: they are read-only.
 */
async function lockedCustomRole(tx: Context, actor: Actor, ref: string): Promise<RoleRow> {
  await lockRows(tx.db, 'workspaces', { id: actor.workspaceId });
  const row = await requireRole(tx, actor, ref);
  if (row.preset) throw new AppError('FORBIDDEN', `The preset role '${row.label}' is read-only: create a custom role instead`);
  return row;
}

/** GET /roles. */
export async function listRoles(ctx: Context, actor: Actor): Promise<RoleWire[]> {
  authorize(actor, 'roles:list');
  return (await workspaceRoles(ctx, actor.workspaceId)).map(present);
}

/** GET /roles/{id}: by id, or a custom role by name; 404 when none. */
export async function getRole(ctx: Context, actor: Actor, ref: string): Promise<RoleWire> {
  authorize(actor, 'roles:list');
  return present(await requireRole(ctx, actor, ref));
}

/** POST /roles: 400 VALIDATION_FAILED listing every problem. */
export async function createRole(ctx: Context, actor: Actor, input: RoleInput): Promise<RoleWire> {
  authorize(actor, 'roles:write');
  return withTransaction(ctx.db, async (db) => {
    const tx = { ...ctx, db };
    await lockRows(db, 'workspaces', { id: actor.workspaceId });
    const values = await validRole(tx, actor.workspaceId, input, null);
    const id = newId();
    const now = iso(ctx.clock());
    await insertCustomRole(db, actor.workspaceId, id, values, now);
    await recordRole(db, actor, now, 'role.created', id, values.name);
    return wireOf(id, values);
  });
}

/**
 * A custom role read from a workspace export (src/modules/export/restore.ts), inside the restore's
 * transaction: checked as POST /roles checks one (against the restored content types and locales;
 * 400 VALIDATION_FAILED with every problem) and inserted under a new key, which it returns. An
 * export is outside input: its roles get no power beyond what their permissions grant.
 */
export async function restoreCustomRole(tx: Context, workspaceId: string, input: RoleInput): Promise<string> {
  const values = await validRole(tx, workspaceId, input, null);
  const id = newId();
  await insertCustomRole(tx.db, workspaceId, id, values, iso(tx.clock()));
  return id;
}

/** PATCH /roles/{id}: name, description and permissions (each optional); presets 403. */
export async function updateRole(ctx: Context, actor: Actor, ref: string, input: RoleInput): Promise<RoleWire> {
  authorize(actor, 'roles:write');
  return withTransaction(ctx.db, async (db) => {
    const tx = { ...ctx, db };
    const row = await lockedCustomRole(tx, actor, ref);
    const merged = { name: input.name ?? row.label, description: input.description ?? row.description, permissions: input.permissions ?? [...row.permissions] };
    const values = await validRole(tx, actor.workspaceId, merged, row.name);
    await updateCustomRole(db, actor.workspaceId, row.name, values);
    const changedFields = (['name', 'description', 'permissions'] as const).filter((k) => input[k] !== undefined);
    await recordRole(db, actor, ctx.clock(), 'role.updated', row.name, values.name, changedFields);
    return wireOf(row.name, values);
  });
}

/** DELETE /roles/{id}: presets 403; 409 ROLE_IN_USE while a member or pending invitation holds it. */
export async function deleteRole(ctx: Context, actor: Actor, ref: string): Promise<void> {
  authorize(actor, 'roles:write');
  await withTransaction(ctx.db, async (db) => {
    const row = await lockedCustomRole({ ...ctx, db }, actor, ref);
    const use = await roleUse(db, actor.workspaceId, row.name);
    if (use.members + use.invitations > 0) {
      throw new AppError(
        'ROLE_IN_USE',
        `The role '${row.label}' is held by ${use.members} member(s) and ${use.invitations} pending invitation(s): give them another role first`,
      );
    }
    await deleteCustomRole(db, actor.workspaceId, row.name);
    await recordRole(db, actor, ctx.clock(), 'role.deleted', row.name, row.label);
  });
}

/** The row values of a valid role, or 400 VALIDATION_FAILED with every problem. */
async function validRole(ctx: Context, workspaceId: string, input: RoleInput, exceptId: string | null): Promise<CustomRoleValues> {
  const errors: ErrorDetail[] = [];
  const name = (input.name ?? '').trim();
  if (!name) errors.push({ path: 'body.name', message: 'must not be empty' });
  else if (PRESET_ROLES.some((p) => p.name === name.toLowerCase())) errors.push({ path: 'body.name', message: `'${name}' is a preset role's name` });
  else if (await customRoleNameTaken(ctx.db, workspaceId, name, exceptId))
    errors.push({ path: 'body.name', message: `a role called '${name}' exists already` });
  const ws = await findWorkspaceById(ctx.db, workspaceId);
  if (!ws) throw notFound('workspace');
  const types = (await listAllContentTypes(ctx.db, workspaceId)).filter((t) => !t.is_block);
  const list = input.permissions ?? [];
  if (!Array.isArray(list)) errors.push({ path: 'body.permissions', message: 'must be an array' });
  else if (list.length > MAX_PERMISSIONS) errors.push({ path: 'body.permissions', message: `at most ${MAX_PERMISSIONS} permissions` });
  const permissions = Array.isArray(list) ? list.map((p, i) => validPermission(p, `body.permissions.${i}`, ws.locales, types, errors)) : [];
  if (errors.length) throw validationError(errors);
  const clean = permissions.filter((p): p is Permission => p !== null);
  return { name, description: (input.description ?? '').trim(), permissions: JSON.stringify(clean), scopes: JSON.stringify(scopesOfPermissions(clean)) };
}

function stringList(value: unknown, path: string, errors: ErrorDetail[]): string[] | null {
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
    errors.push({ path, message: 'must be an array of strings' });
    return null;
  }
  return [...new Set(value as string[])];
}

function validPermission(raw: unknown, path: string, locales: readonly string[], types: readonly ContentType[], errors: ErrorDetail[]): Permission | null {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    errors.push({ path, message: 'must be an object' });
    return null;
  }
  const p = raw as Record<string, unknown>;
  for (const key of Object.keys(p)) {
    if (!['resource', 'actions', 'content_types', 'locales', 'deny_fields', 'own_only'].includes(key))
      errors.push({ path: `${path}.${key}`, message: 'is not a permission property' });
  }
  if (!(RESOURCES as readonly unknown[]).includes(p.resource)) {
    errors.push({ path: `${path}.resource`, message: `must be one of ${RESOURCES.join(', ')}` });
    return null;
  }
  const resource = p.resource as PermissionResource;
  const out: Permission = { resource, actions: [] };
  const actions = stringList(p.actions, `${path}.actions`, errors) ?? [];
  if (p.actions !== undefined && actions.length === 0 && Array.isArray(p.actions))
    errors.push({ path: `${path}.actions`, message: 'must name at least one action' });
  actions.forEach((a, i) => {
    if (!actionsOf(resource).includes(a as PermissionAction))
      errors.push({ path: `${path}.actions.${i}`, message: `'${a}' is not an action on ${resource} (${actionsOf(resource).join(', ')})` });
  });
  out.actions = PERMISSION_ACTIONS.filter((a) => actions.includes(a));
  const limits = LIMITS_OF[resource];
  for (const limit of ['content_types', 'locales', 'deny_fields', 'own_only'] as const) {
    if (p[limit] !== undefined && !limits.has(limit)) errors.push({ path: `${path}.${limit}`, message: `does not apply to ${resource}` });
  }
  let narrowed = types;
  if (p.content_types !== undefined && limits.has('content_types')) {
    const slugs = stringList(p.content_types, `${path}.content_types`, errors) ?? [];
    slugs.forEach((s, i) => {
      if (!types.some((t) => t.slug === s)) errors.push({ path: `${path}.content_types.${i}`, message: `'${s}' is not an entry type of this workspace` });
    });
    out.content_types = slugs;
    narrowed = types.filter((t) => slugs.includes(t.slug));
  }
  if (p.locales !== undefined && limits.has('locales')) {
    const codes = stringList(p.locales, `${path}.locales`, errors) ?? [];
    codes.forEach((c, i) => {
      if (!locales.includes(c)) errors.push({ path: `${path}.locales.${i}`, message: `'${c}' is not a locale of this workspace (${locales.join(', ')})` });
    });
    out.locales = codes;
  }
  if (p.deny_fields !== undefined && limits.has('deny_fields')) {
    const names = stringList(p.deny_fields, `${path}.deny_fields`, errors) ?? [];
    names.forEach((n, i) => {
      if (!narrowed.some((t) => t.fields.some((f) => f.name === n)))
        errors.push({ path: `${path}.deny_fields.${i}`, message: `'${n}' is not a field of the permission's content types` });
    });
    out.deny_fields = names;
  }
  if (p.own_only !== undefined && limits.has('own_only')) {
    if (typeof p.own_only !== 'boolean') errors.push({ path: `${path}.own_only`, message: 'must be true or false' });
    else if (p.own_only) out.own_only = true;
  }
  return out;
}
