/**
 * Releases of the management API (`client.manage.releases`, docs/releases.md, D110–D113):
 * entries and pages that go live together, all or nothing. Reads take any management key;
 * editing a release and its items needs `content:write`; publishing, scheduling and reverting
 * `content:publish`. Release versions of items are read and written with the `release` option of
 * `manage.entries.get|update` and `manage.pages.get|update`.
 */
import { Collection, readData, seg, writeData, type ReadOptions, type WriteOptions } from './calls.js';
import type { Transport } from './transport.js';
import type { WireBody, WireData, WireQuery } from './wire.js';

const BASE = '/api/v1/manage/releases';

/** A release: `{id, title, description, status, publish_at, published_at, reverted_at, failure, items_count, …}`. */
export type Release = WireData<'/api/v1/manage/releases/{id}', 'get'>;
export type ReleaseCreate = WireBody<'/api/v1/manage/releases', 'post'>;
export type ReleaseUpdate = WireBody<'/api/v1/manage/releases/{id}', 'patch'>;
export type ReleaseListQuery = WireQuery<'/api/v1/manage/releases', 'get'>;
/** An item of a release: `{kind, id, slug, content_type, action, base_version, conflict, status, …}`. */
export type ReleaseItem = WireData<'/api/v1/manage/releases/{id}/items', 'get'>[number];
/** Body of an item's addition: `{kind: 'entry' | 'page', id, action: 'publish' | 'unpublish'}`. */
export type ReleaseItemInput = WireBody<'/api/v1/manage/releases/{id}/items', 'post'>;
/** `{valid, problems}`: what a publication now would refuse. */
export type ReleaseValidation = WireData<'/api/v1/manage/releases/{id}/validation', 'get'>;

/** Releases: `client.manage.releases` (`list` newest first, `iterate`, `get`, and `delete` for releases not published). */
export class ManagedReleases extends Collection<Release, ReleaseListQuery> {
  constructor(t: Transport) {
    super(t, BASE);
  }

  /** Opens a new release. */
  async create(input: ReleaseCreate, options?: WriteOptions): Promise<Release> {
    return writeData(this.t, 'POST', BASE, input, options);
  }

  /** Changes its title or description. */
  async update(id: string, patch: ReleaseUpdate, options?: WriteOptions): Promise<Release> {
    return writeData(this.t, 'PATCH', this.at(id), patch, options);
  }

  /** Its items, in the order they were added. */
  items = {
    list: async (id: string, options?: ReadOptions): Promise<ReleaseItem[]> => readData(this.t, this.at(id, '/items'), undefined, options),
    /** Adds an entry or page; a `publish` item copies its working copy as its release version (at most 1,000 items). */
    add: async (id: string, item: ReleaseItemInput, options?: WriteOptions): Promise<ReleaseItem> =>
      writeData(this.t, 'POST', this.at(id, '/items'), item, options),
    /** Takes an item and its release version out. */
    remove: async (id: string, kind: ReleaseItem['kind'], itemId: string, options?: WriteOptions): Promise<void> => {
      await writeData(this.t, 'DELETE', this.at(id, `/items/${seg(kind)}/${seg(itemId)}`), undefined, options);
    },
  };

  /** The checks of a publication without publishing: `{valid, problems}`. */
  async validate(id: string, options?: ReadOptions): Promise<ReleaseValidation> {
    return readData(this.t, this.at(id, '/validation'), undefined, options);
  }

  /** Publishes every item in one transaction (422 RELEASE_INVALID lists every problem, and nothing changes). */
  async publish(id: string, options?: WriteOptions): Promise<Release> {
    return writeData(this.t, 'POST', this.at(id, '/publish'), undefined, options);
  }

  /** Schedules the publication at `publishAt` (a Date or an ISO 8601 time in the future). */
  async schedule(id: string, publishAt: Date | string, options?: WriteOptions): Promise<Release> {
    const publish_at = publishAt instanceof Date ? publishAt.toISOString() : publishAt;
    return writeData(this.t, 'POST', this.at(id, '/schedule'), { publish_at }, options);
  }

  /** Takes a scheduled release back to open. */
  async unschedule(id: string, options?: WriteOptions): Promise<Release> {
    return writeData(this.t, 'POST', this.at(id, '/unschedule'), undefined, options);
  }

  /** Publishes what each item was before the release (409 RELEASE_CONFLICT for items published since, unless `force`). */
  async revert(id: string, options: WriteOptions & { force?: boolean } = {}): Promise<Release> {
    const { force, ...rest } = options;
    return writeData(this.t, 'POST', this.at(id, '/revert'), force === undefined ? {} : { force }, rest);
  }
}
