/**
 * Records what an app answers (method, route pattern, status, headers, body) and checks each
 * answer against the OpenAPI document the same app serves: the status must be documented for
 * that operation, and a JSON body must validate (Ajv, JSON Schema 2020-12 with formats) against
 * the documented schema. Used by test/openapi.test.ts; any suite can record through
 * createTestEnv's beforeReady: `beforeReady: (app) => recordTraffic(app, exchanges)`.
 */
import type { FastifyInstance } from 'fastify';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats ships CommonJS with a default export; under NodeNext it arrives wrapped.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;

export interface Exchange {
  method: string;
  /** The route pattern (`/api/v1/manage/pages/:slug`), or null when no route matched. */
  route: string | null;
  url: string;
  status: number;
  headers: Record<string, unknown>;
  body: string | null;
  /** The parsed JSON request body, when there was one. */
  requestBody: unknown;
}

/** Adds an onSend hook to `app` (before ready) pushing every answer to `sink`. */
export function recordTraffic(app: FastifyInstance, sink: Exchange[]): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : null;
    sink.push({
      method: request.method,
      route: request.routeOptions.url ?? null,
      url: request.url,
      status: reply.statusCode,
      headers: { ...reply.getHeaders() },
      body,
      requestBody: request.body !== null && typeof request.body === 'object' && !Buffer.isBuffer(request.body) ? request.body : undefined,
    });
    return payload;
  });
}

type Json = Record<string, any>;

/** `METHOD /openapi/path` of a recorded route (`:x` → `{x}`, the file wildcard → `{path}`). */
export function operationKey(method: string, route: string): string {
  const path = route.endsWith('/*') ? `${route.slice(0, -2)}/{path}` : route.replace(/:(\w+)/g, '{$1}');
  return `${method.toUpperCase()} ${path}`;
}

/** Checks exchanges against `doc`; returns failures and, per operation, the statuses seen. */
export function checkAgainstDocument(doc: Json, exchanges: Exchange[]): { failures: string[]; seen: Map<string, Set<number>> } {
  const ajv = addFormats(new Ajv2020({ strict: false, allErrors: false }));
  // Component schemas under one id, so the document's `#/components/schemas/X` refs resolve.
  const rewrite = (schema: unknown) => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', '"quire-components#/$defs/'));
  ajv.addSchema({ $id: 'quire-components', $defs: rewrite(doc.components.schemas) });
  const compiled = new Map<unknown, ValidateFunction>();
  const validatorOf = (schema: unknown) => {
    let v = compiled.get(schema);
    if (!v) {
      v = ajv.compile(rewrite(schema));
      compiled.set(schema, v);
    }
    return v;
  };
  const resolve = (node: Json): Json => {
    if (typeof node?.$ref !== 'string') return node;
    const [, section, name] = /^#\/components\/(\w+)\/(.+)$/.exec(node.$ref) ?? [];
    return doc.components[section][name];
  };

  const failures: string[] = [];
  const seen = new Map<string, Set<number>>();
  for (const x of exchanges) {
    if (!x.route || x.method === 'HEAD' || x.method === 'OPTIONS') continue;
    const key = operationKey(x.method, x.route);
    const [method, path] = key.split(' ');
    const op = doc.paths[path]?.[method.toLowerCase()];
    if (!op) continue; // hidden routes (health, the document itself, the Studio, /docs)
    if (!seen.has(key)) seen.set(key, new Set());
    seen.get(key)!.add(x.status);
    const documented = op.responses[String(x.status)];
    const where = `${op.operationId} (${x.method} ${x.url.slice(0, 120)}) ${x.status}`;
    if (!documented) {
      failures.push(`${where}: status not documented (body ${String(x.body).slice(0, 200)})`);
      continue;
    }
    const response = resolve(documented);
    if (x.headers['x-request-id'] === undefined) failures.push(`${where}: no X-Request-Id`);
    if (response.headers?.ETag && x.status < 300 && x.headers.etag === undefined) failures.push(`${where}: ETag documented but not sent`);
    const json = response.content?.['application/json'];
    if (!json) continue;
    let body: unknown;
    try {
      body = JSON.parse(x.body ?? '');
    } catch {
      failures.push(`${where}: body is not JSON: ${String(x.body).slice(0, 100)}`);
      continue;
    }
    const validate = validatorOf(json.schema);
    if (!validate(body)) failures.push(`${where}: body does not match the schema: ${ajv.errorsText(validate.errors)} — ${String(x.body).slice(0, 300)}`);
  }
  return { failures, seen };
}
