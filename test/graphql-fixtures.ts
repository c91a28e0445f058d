/**
 * Fixtures of the GraphQL suites: the demo content (docs/configuration.md "Configuration": the demo
 * workspace's authors, posts and pages) seeded into a fresh workspace of any dialect (the demo
 * itself is only created on an embedded database), and a GraphQL request helper over inject().
 */
import type { FastifyInstance } from 'fastify';
import type { Context } from '../src/context.js';
import { systemActor } from '../src/modules/auth/permissions.js';
import { seedDemoPages } from '../src/modules/demo/pages.js';
import { seedDemoEntries } from '../src/modules/demo/seed.js';
import { call, seedWorkspace, type Res } from './helpers.js';
import type { BootstrapResult } from '../src/modules/auth/operations.js';

export const GRAPHQL = '/api/v1/public/graphql';

/** A new workspace (en, de) holding the demo's images, content types, authors, posts (published) and pages. */
export async function seedDemoContent(
  ctx: Context,
): Promise<BootstrapResult & { postIds: Map<string, string>; authorIds: Map<string, string>; imageIds: Map<string, string> }> {
  const boot = await seedWorkspace(ctx);
  const actor = systemActor(boot.workspace.id, boot.user.id);
  const { authorIds, postIds, imageIds } = await seedDemoEntries(ctx, actor);
  await seedDemoPages(ctx, actor, postIds, imageIds);
  return { ...boot, postIds, authorIds, imageIds };
}

/** POST a GraphQL request with `key`; GET when `get` (query, variables, operationName in the URL). */
export async function gql(
  app: FastifyInstance,
  key: string | undefined,
  query: string,
  variables?: Record<string, unknown>,
  opts: { get?: boolean; headers?: Record<string, string> } = {},
): Promise<Res> {
  if (opts.get) {
    const params = new URLSearchParams({ query });
    if (variables) params.set('variables', JSON.stringify(variables));
    return call(app, 'GET', `${GRAPHQL}?${params}`, { key, headers: opts.headers });
  }
  return call(app, 'POST', GRAPHQL, { key, body: { query, variables }, headers: opts.headers });
}
