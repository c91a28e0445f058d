/**
 * Webhooks of the management API (`client.manage.webhooks`, docs/api.md "Webhooks"; the receiving
 * side in docs/front-ends.md "Webhooks"). Every call needs the `webhooks:write` scope, reads too.
 * A webhook's signing secret is shown twice only: in the answer of `create` and of `rotateSecret`.
 */
import { Collection, readPage, seg, writeData, writeOnce, type ReadOptions, type WriteOptions } from './calls.js';
import { followPages } from './lists.js';
import type { Transport } from './transport.js';
import type { ListPage } from './types.js';
import type { WireBody, WireData, WireQuery } from './wire.js';

const BASE = '/api/v1/manage/webhooks';

/** A webhook: `{id, url, description, events, content_types, enabled, created_at, updated_at}` (never its secret). */
export type Webhook = WireData<'/api/v1/manage/webhooks/{id}', 'get'>;
/** Body of a webhook's creation: `{url, events, content_types?, enabled?, description?}`. */
export type WebhookCreate = WireBody<'/api/v1/manage/webhooks', 'post'>;
/** A created webhook with its signing secret (`whsec_…`), shown only in this answer. */
export type CreatedWebhook = WireData<'/api/v1/manage/webhooks', 'post'>;
/** Body of a webhook's change: any of `url`, `events`, `content_types`, `enabled`, `description`. */
export type WebhookUpdate = WireBody<'/api/v1/manage/webhooks/{id}', 'patch'>;
export type WebhookListQuery = WireQuery<'/api/v1/manage/webhooks', 'get'>;
/** A delivery of a webhook: its event, status, schedule, payload and attempts (newest first). */
export type WebhookDelivery = WireData<'/api/v1/manage/webhooks/{id}/deliveries/{delivery_id}/retry', 'post'>;
export type WebhookDeliveryListQuery = WireQuery<'/api/v1/manage/webhooks/{id}/deliveries', 'get'>;

/** Options of a secret rotation. */
export interface RotateSecretOptions extends ReadOptions {
  /** How long the replaced secret keeps signing beside the new one, in seconds (default 86400, at most 604800; 0 stops it at once). */
  graceSeconds?: number;
}

/** A webhook after a secret rotation: the new secret (shown only here) and when the replaced one stops signing (null with no grace period). */
export type RotatedWebhook = WireData<'/api/v1/manage/webhooks/{id}/rotate-secret', 'post'>;

/** Webhooks: `client.manage.webhooks` (`list`, `iterate`, `get` and `delete` as every collection). */
export class ManagedWebhooks extends Collection<Webhook, WebhookListQuery> {
  constructor(t: Transport) {
    super(t, BASE);
  }

  /** Creates a webhook; the answer carries its signing secret, which is never shown again (sent once, never resent). */
  async create(input: WebhookCreate, options?: ReadOptions): Promise<CreatedWebhook> {
    return writeOnce(this.t, BASE, input, options);
  }

  /** Changes a webhook (same checks as on creation); the secret stays. */
  async update(id: string, patch: WebhookUpdate, options?: WriteOptions): Promise<Webhook> {
    return writeData(this.t, 'PATCH', this.at(id), patch, options);
  }

  /**
   * Replaces the signing secret. For `graceSeconds` (default 24 hours) every attempt is signed
   * with both secrets, so receivers can switch to the new one at any point of that period. Sent
   * once, never resent (a second rotation would drop the secret receivers hold).
   */
  async rotateSecret(id: string, options: RotateSecretOptions = {}): Promise<RotatedWebhook> {
    const { graceSeconds, ...rest } = options;
    return writeOnce(this.t, this.at(id, '/rotate-secret'), graceSeconds === undefined ? {} : { grace_seconds: graceSeconds }, rest);
  }

  /** One page of a webhook's delivery log, newest first (`status`: pending, delivered, failed). */
  async deliveries(id: string, query: WebhookDeliveryListQuery = {}, options?: ReadOptions): Promise<ListPage<WebhookDelivery>> {
    return readPage(this.t, this.at(id, '/deliveries'), query, options);
  }

  /** Every delivery of a webhook matching `query`, page after page. */
  iterateDeliveries(id: string, query: Omit<WebhookDeliveryListQuery, 'page'> = {}, options?: ReadOptions): AsyncGenerator<WebhookDelivery, void, undefined> {
    return followPages((page) => this.deliveries(id, { ...query, page }, options));
  }

  /** Makes one attempt of a delivery now; answers the delivery with that attempt (409 while one is under way). */
  async retry(id: string, deliveryId: string, options?: WriteOptions): Promise<WebhookDelivery> {
    return writeData(this.t, 'POST', this.at(id, `/deliveries/${seg(deliveryId)}/retry`), undefined, options);
  }

  /** Sends a `ping` message now (to a disabled webhook too); answers its delivery. */
  async ping(id: string, options?: WriteOptions): Promise<WebhookDelivery> {
    return writeData(this.t, 'POST', this.at(id, '/ping'), undefined, options);
  }
}
