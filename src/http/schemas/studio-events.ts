/**
 * Wire shapes of the Studio's event stream and presence (docs/workflow.md "Who else is here"
 * (D133)): one schema per shape, giving the TypeScript type, the validation and the OpenAPI document.
 */
import { Type, type Static } from '@sinclair/typebox';
import { NullableString } from './common.js';

export const PresenceParams = Type.Object(
  { stream: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$', description: "the `stream` of the stream's `hello` frame" }) },
  { additionalProperties: false },
);

export const PresenceItemSchema = Type.Object(
  {
    kind: Type.Union([Type.Literal('entry'), Type.Literal('page')]),
    id: Type.String({ minLength: 1, maxLength: 64, description: "the entry's or page's id" }),
  },
  { additionalProperties: false },
);

export const PresenceBody = Type.Object(
  { item: Type.Union([PresenceItemSchema, Type.Null()], { description: 'the item the Studio shows now; null: none' }) },
  { additionalProperties: false },
);
export type PresenceBodyWire = Static<typeof PresenceBody>;

export const PresenceSchema = Type.Object({
  people: Type.Array(Type.Object({ id: Type.Integer(), email: Type.String(), name: NullableString }), {
    description: 'the people whose Studio shows the item, each once, in the order they came (you included); [] for none',
  }),
});
