/** Wire schemas of media (docs/media.md "The record"; docs/api.md "Media (management)"; docs/media.md "Uploading" (D50), "URLs" (D51), "Storage" (D52)). */
import { Type } from '@sinclair/typebox';
import { ASSET_KINDS } from '../../modules/media/kinds.js';
import { MAX_ALT_TEXT, MAX_DESCRIPTION, MAX_TITLE } from '../../modules/media/upload-form.js';
import { FITS, FORMATS, MAX_DIMENSION } from '../../modules/media/transform.js';
import { PageQuery, Timestamp, Uuid } from './common.js';

const NullableInt = Type.Union([Type.Integer(), Type.Null()]);
const NullableNumber = Type.Union([Type.Number(), Type.Null()]);
const NullableString = Type.Union([Type.String(), Type.Null()]);

/** The management media record. */
export const MediaAssetSchema = Type.Object(
  {
    id: Uuid,
    workspace_id: Uuid,
    url: Type.String({
      description: 'absolute URL of the file, computed when read from PUBLIC_URL (`/media/files/<storage key>`) or MEDIA_PUBLIC_URL (D51); never stored',
    }),
    mime_type: Type.String(),
    width: NullableInt,
    height: NullableInt,
    alt_text: NullableString,
    title: Type.Union([Type.String(), Type.Null()], { description: "the asset's title; a Contentful import takes the asset's title in the default locale" }),
    description: Type.Union([Type.String(), Type.Null()], { description: "a longer text about the asset; a Contentful import takes the asset's description" }),
    focal_x: NullableNumber,
    focal_y: NullableNumber,
    filename: Type.String({ description: 'generated name of the stored file' }),
    original_name: Type.String({ description: "the uploader's file name" }),
    folder: NullableString,
    size: Type.Integer({ description: 'bytes' }),
    uploaded_by: NullableInt,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'MediaAsset' },
);

/** The delivery media object (also what media fields resolve to, D41). */
export const DeliveryMediaSchema = Type.Object(
  {
    id: Uuid,
    url: Type.String({ description: 'absolute URL of the file, computed when read from PUBLIC_URL or MEDIA_PUBLIC_URL (D51)' }),
    mime_type: Type.String(),
    width: NullableInt,
    height: NullableInt,
    alt_text: NullableString,
    title: NullableString,
    description: NullableString,
    focal_x: NullableNumber,
    focal_y: NullableNumber,
  },
  { title: 'DeliveryMedia' },
);

export const MediaIdParams = Type.Object({ id: Type.String({ maxLength: 100 }) });

/** `X-Workspace-ID` (D50, issue 28 item 6): optional on every media route; when sent, checked by checkWorkspaceHeader (400 / 403). */
export const WorkspaceHeaders = Type.Object({ 'x-workspace-id': Type.Optional(Type.String({ maxLength: 100 })) });

const KIND = ASSET_KINDS.join('|');

export const MediaListQuery = Type.Object(
  {
    ...PageQuery,
    folder: Type.Optional(Type.String({ maxLength: 200, description: "exact folder; '' lists assets without a folder" })),
    type: Type.Optional(
      Type.String({
        pattern: `^(${KIND})(,(${KIND}))*$`,
        maxLength: 100,
        description:
          'by MIME type: image (image/*), video (video/*), pdf, other (neither an image, a video nor a PDF); several separated by commas (image,video) list assets of any of them',
      }),
    ),
    search: Type.Optional(
      Type.String({ maxLength: 200, description: 'case-insensitive substring of the original file name, the alt text, the title or the description' }),
    ),
    missing_alt: Type.Optional(Type.Boolean({ description: 'true: only assets without alt text (none, or only spaces); false or absent: no filter' })),
  },
  { additionalProperties: false },
);

/** A folder holding assets directly (GET /media/folders); parents without assets of their own are not listed. */
export const MediaFolderSchema = Type.Object(
  { folder: Type.String(), count: Type.Integer({ description: 'live assets directly in it' }) },
  { title: 'MediaFolder' },
);

/** Where an asset is used (GET /media/{id}/usage): entries and pages naming it in a media, media list or rich-text field. */
export const MediaUsageSchema = Type.Object(
  {
    entries: Type.Array(
      Type.Object({
        id: Uuid,
        content_type: Type.String({ description: 'content type slug' }),
        slug: Type.String(),
        title: Type.Optional(Type.String({ description: "the display field's default-locale value, when set" })),
      }),
    ),
    pages: Type.Array(Type.Object({ id: Uuid, slug: Type.String(), title: Type.String({ description: 'SEO title, else the slug' }) })),
  },
  { title: 'MediaUsage' },
);

const Focal = Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()]);

export const UpdateMediaBody = Type.Object(
  {
    original_name: Type.Optional(
      Type.String({ minLength: 1, maxLength: 255, description: 'the name shown for the asset (folders and control characters are removed)' }),
    ),
    alt_text: Type.Optional(Type.Union([Type.String({ maxLength: MAX_ALT_TEXT }), Type.Null()])),
    title: Type.Optional(Type.Union([Type.String({ maxLength: MAX_TITLE }), Type.Null()])),
    description: Type.Optional(Type.Union([Type.String({ maxLength: MAX_DESCRIPTION }), Type.Null()])),
    folder: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
    focal_x: Type.Optional(Focal),
    focal_y: Type.Optional(Focal),
  },
  { additionalProperties: false },
);

/** The multipart form, for the OpenAPI document only (parts are validated by readUploadForm). */
export const UploadFormDoc = {
  type: 'object',
  required: ['file'],
  properties: {
    file: { type: 'string', format: 'binary', description: 'image, video or PDF, at most MEDIA_MAX_BYTES (10 MB)' },
    alt_text: { type: 'string', maxLength: MAX_ALT_TEXT },
    title: { type: 'string', maxLength: MAX_TITLE },
    description: { type: 'string', maxLength: MAX_DESCRIPTION },
    folder: { type: 'string', description: 'path segments of [a-z0-9_-] separated by / (D52)' },
    focal_x: { type: 'number', minimum: 0, maximum: 1 },
    focal_y: { type: 'number', minimum: 0, maximum: 1 },
  },
} as const;

/** Transform parameters of file URLs; anything else in the query answers 400. */
export const FileQuery = Type.Object(
  {
    w: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_DIMENSION })),
    h: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_DIMENSION })),
    fit: Type.Optional(Type.String({ enum: [...FITS] })),
    fm: Type.Optional(Type.String({ enum: [...FORMATS] })),
    q: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  },
  { additionalProperties: false },
);
