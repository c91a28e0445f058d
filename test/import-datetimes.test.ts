/**
 * The Contentful importer keeps the offset of every Date value of a `datetime` field (issue 12
 * item 2; docs/cli.md "Importing a Contentful space export"): `2024-05-01T10:00+02:00` becomes
 * `2024-05-01T10:00:00.000+02:00`, not the UTC instant. A value without a zone (Contentful's local
 * time format, or a date alone in a field that also holds times) is read as UTC, its time kept as
 * written, and one warning per field says how many there were. A unique Date field is unique by
 * instant: within one run (two entries of the export) and against the entries already stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContentfulExport } from '../src/modules/import/contentful/export.js';
import { importContentful, type ImportResult } from '../src/modules/import/operations.js';
import { call, createTestEnv, dialects, type TestEnv } from './helpers.js';

const P = '/api/v1/public';
const published = { publishedVersion: 1, version: 2 };

function eventsExport(extra: { id: string; startsAt: string }[] = []): ContentfulExport {
  const entry = (id: string, startsAt: string) => ({
    sys: { id, contentType: { sys: { id: 'event' } }, ...published },
    fields: { title: { 'en-US': id }, startsAt: { 'en-US': startsAt }, day: { 'en-US': '2024-05-01' } },
  });
  return {
    locales: [{ code: 'en-US', default: true }],
    contentTypes: [
      {
        sys: { id: 'event' },
        name: 'Event',
        displayField: 'title',
        fields: [
          { id: 'title', name: 'Title', type: 'Symbol' },
          { id: 'startsAt', name: 'Starts at', type: 'Date', validations: [{ unique: true }] },
          { id: 'day', name: 'Day', type: 'Date' },
        ],
      },
    ],
    entries: [
      entry('berlin', '2024-05-01T10:00+02:00'),
      entry('local', '2024-05-01T09:30'),
      entry('dateonly', '2024-05-03'),
      // The instant of `berlin`, written in UTC: a duplicate of a unique field.
      entry('same', '2024-05-01T08:00:00.000Z'),
      entry('denver', '2024-05-02T01:00:00-07:00'),
      ...extra.map((e) => entry(e.id, e.startsAt)),
    ],
    assets: [],
  };
}

describe.each(dialects())('Contentful datetimes on %s', (dialect) => {
  let env: TestEnv;
  let first: ImportResult;

  beforeAll(async () => {
    env = await createTestEnv(dialect);
    first = await importContentful(env.ctx, { workspace: 'events', export: eventsExport() });
  });
  afterAll(async () => env?.close());

  const delivered = async (): Promise<Record<string, { startsAt: string; day: string }>> => {
    const res = await call(env.app, 'GET', `${P}/entries?type=event&limit=100`, { key: first.keys!.delivery });
    expect(res.status).toBe(200);
    return Object.fromEntries(res.body.data.map((e: { slug: string; data: string }) => [e.slug, JSON.parse(e.data)]));
  };

  it('keeps each offset as written and reads a value without a zone as UTC', async () => {
    const values = await delivered();
    expect(Object.fromEntries(Object.entries(values).map(([slug, d]) => [slug, d.startsAt]))).toEqual({
      berlin: '2024-05-01T10:00:00.000+02:00',
      local: '2024-05-01T09:30:00.000Z',
      dateonly: '2024-05-03T00:00:00.000Z',
      denver: '2024-05-02T01:00:00.000-07:00',
    });
    // A field of dates alone stays a date.
    expect(values.berlin.day).toBe('2024-05-01');
  });

  it('warns once per field about the values without a zone, with the first of them', () => {
    const zoneless = first.warnings.filter((w) => w.includes('without a time zone'));
    expect(zoneless).toEqual([
      "content type 'event': field 'startsAt' holds 2 date-time values without a time zone (e.g. entry 'local': 2024-05-01T09:30), read as UTC: the time stays as written, with the offset Z",
    ]);
  });

  it('refuses a second value naming the same instant, in the export and against stored entries', async () => {
    expect(first.failures).toEqual([{ entry: 'same', type: 'event', message: "value of 'startsAt' is already used by another entry of 'event'" }]);
    const again = await importContentful(env.ctx, { workspace: 'events', export: eventsExport([{ id: 'utah', startsAt: '2024-05-02T08:00Z' }]) });
    expect(again.entries).toMatchObject({ created: 0, updated: 0, unchanged: 4 });
    expect(again.failures.map((f) => f.entry).sort()).toEqual(['same', 'utah']);
    expect(Object.keys(await delivered()).sort()).toEqual(['berlin', 'dateonly', 'denver', 'local']);
  });
});
