/**
 * Identifiers. Records get UUID v7 (time-ordered, so new rows append to indexes); imported
 * records get UUID v5 derived from the workspace and the source id, which makes a second import
 * find the same rows (docs/api.md "Wire format": ids are UUID strings; issue: "A second run changes
 * nothing").
 */
import { v5 as uuidv5, v7 as uuidv7, validate as uuidValidate } from 'uuid';

export function newId(): string {
  return uuidv7();
}

/** Deterministic uuid for `name` inside `namespace` (itself a uuid). */
export function derivedId(namespace: string, name: string): string {
  return uuidv5(name, namespace);
}

/** True for a syntactically valid UUID string (any version). */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && uuidValidate(value);
}
