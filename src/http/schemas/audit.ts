/**
 * Wire shapes of the audit log (docs/api.md "Audit log" (D122)): one schema per shape, giving the
 * TypeScript type, the validation and the OpenAPI document.
 */
import { Type, type Static } from '@sinclair/typebox';
import { NullableString, Timestamp } from './common.js';

export const AuditEntrySchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    at: Timestamp,
    actor: Type.Object({
      type: Type.Union([Type.Literal('user'), Type.Literal('key'), Type.Literal('system')]),
      id: NullableString,
      label: NullableString,
      user_id: Type.Union([Type.Integer(), Type.Null()], { description: "the person: the user, or a key's creator" }),
    }),
    action: Type.String({ description: '`<kind>.<verb>`, e.g. `entry.updated`, `session.sign_in_failed`' }),
    target: Type.Object({ kind: Type.String(), id: NullableString, slug: NullableString }),
    ip: NullableString,
    user_agent: NullableString,
    request_id: NullableString,
    changed_fields: Type.Optional(Type.Array(Type.String(), { description: 'top-level field names an update changed (names only, never values)' })),
  },
  { title: 'AuditEntry' },
);
export type AuditEntryWire = Static<typeof AuditEntrySchema>;

export const AuditLogQuery = Type.Object(
  {
    actor: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: '`user:<id>`, `key:<id>`, or a type alone: `user`, `key`, `system`' })),
    action: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'an action (`entry.updated`) or a prefix (`entry.*`)' })),
    target: Type.Optional(Type.String({ minLength: 1, maxLength: 300, description: '`<kind>:<id>` (`entry:<uuid>`, `user:12`) or a kind alone' })),
    from: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: 'ISO 8601 time: rows at or after it' })),
    to: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: 'ISO 8601 time: rows before it' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: 'meta.next_cursor of the previous page' })),
  },
  { additionalProperties: false },
);
export type AuditLogQueryInput = Static<typeof AuditLogQuery>;
