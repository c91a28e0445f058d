/**
 * The delivery API plugin (`/api/v1/public`): delivery-key authentication, then one file per
 * resource. Read-only.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Context } from '../../../context.js';
import { registerAuth } from '../../auth-hooks.js';
import { registerRateLimit } from '../../rate-limit.js';
import { registerDeliveryCache } from '../../delivery-cache.js';
import { useDeliveryCacheHints } from '../../graphql-cache.js';
import { persistedQueryStore, useAutomaticPersistedQueries } from '../../../modules/graphql/apq.js';
import { useQueryLimits } from '../../../modules/graphql/limits.js';
import { deliveryEntryRoutes } from './entries.js';
import { deliveryGraphqlRoutes } from './graphql.js';
import { deliveryMediaRoutes } from './media.js';
import { deliveryPageRoutes } from './pages.js';
import { deliveryPreviewRoutes } from './preview.js';
import { deliverySchemaRoutes } from './schema.js';
import { deliverySyncRoutes } from './sync.js';

export function deliveryRoutes(ctx: Context): FastifyPluginAsync {
  return async (app) => {
    registerAuth(app, ctx, 'delivery');
    registerRateLimit(app, ctx, ctx.config.rateLimitDelivery, 'delivery');
    registerDeliveryCache(app, ctx);
    await deliveryEntryRoutes(app, ctx);
    await deliverySchemaRoutes(app, ctx);
    await deliveryPreviewRoutes(app, ctx);
    await deliveryMediaRoutes(app, ctx);
    await deliveryPageRoutes(app, ctx);
    await deliverySyncRoutes(app, ctx);
    await deliveryGraphqlRoutes(app, ctx, [
      useQueryLimits({ maxDepth: ctx.config.graphqlMaxDepth, maxCost: ctx.config.graphqlMaxCost }),
      useAutomaticPersistedQueries(persistedQueryStore(ctx)),
      useDeliveryCacheHints(),
    ]);
  };
}
