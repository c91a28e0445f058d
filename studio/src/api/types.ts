/**
 * Wire types of the management API, derived from the server's TypeBox schemas (one definition:
 * src/http/schemas/). Only types cross this boundary; nothing of the server is bundled.
 */
import type { Static } from '@sinclair/typebox';
import type {
  ContentTypeSchema,
  FieldSchema,
  FieldInputSchema,
  CreateContentTypeBody,
  UpdateContentTypeBody,
  DeletionImpactSchema,
  LocalizationImpactSchema,
} from '../../../src/http/schemas/content-types.js';
import type { EntrySchema, EntryTranslationSchema, VersionSchema, BulkResultSchema } from '../../../src/http/schemas/entries.js';
import type { MediaAssetSchema } from '../../../src/http/schemas/media.js';
import type { PageSchema, PageDetailSchema } from '../../../src/http/schemas/pages.js';
import type { SessionInfoSchema, SignInMethodsSchema, TokenInfoSchema } from '../../../src/http/schemas/session.js';
import type {
  ApiKeySchema,
  CreatedApiKeySchema,
  InvitationSchema,
  MemberSchema,
  OverviewCountsSchema,
  OverviewSchema,
  WorkspaceSchema,
} from '../../../src/http/schemas/studio.js';
import type { ReleaseItemSchema, ReleaseSchema, ReleaseValidationSchema } from '../../../src/http/schemas/releases.js';
import type { CreatedWebhookSchema, WebhookDeliverySchema, WebhookSchema } from '../../../src/http/schemas/webhooks.js';
import type { AuditEntrySchema } from '../../../src/http/schemas/audit.js';
import type { PersonSchema, StageSchema, WorkflowCreateBody, WorkflowSchema, WorkflowStateSchema } from '../../../src/http/schemas/workflows.js';

export type { Role, Scope, KeyClass, Environment } from '../../../src/modules/auth/permissions.js';
export type { Capability } from '../../../src/modules/access/authorize.js';
export type { Status } from '../../../src/modules/publishing/states.js';

export type ContentType = Static<typeof ContentTypeSchema>;
export type Field = Static<typeof FieldSchema>;
export type FieldInput = Static<typeof FieldInputSchema>;
export type CreateContentTypeInput = Static<typeof CreateContentTypeBody>;
export type UpdateContentTypeInput = Static<typeof UpdateContentTypeBody>;
export type Entry = Static<typeof EntrySchema>;
export type EntryTranslation = Static<typeof EntryTranslationSchema>;
export type Version = Static<typeof VersionSchema>;
export type BulkResult = Static<typeof BulkResultSchema>;
export type MediaAsset = Static<typeof MediaAssetSchema>;
export type Page = Static<typeof PageSchema>;
export type PageDetail = Static<typeof PageDetailSchema>;
export type DeletionImpact = Static<typeof DeletionImpactSchema>;
export type LocalizationImpact = Static<typeof LocalizationImpactSchema>;
export type SessionInfo = Static<typeof SessionInfoSchema>;
/** How people sign in here (GET /session/methods): password, single sign-on or both. */
export type SignInMethods = Static<typeof SignInMethodsSchema>;
export type SessionWorkspace = SessionInfo['workspaces'][number];
/** What a setup or invitation link is for (GET /session/token). */
export type OneTimeToken = Static<typeof TokenInfoSchema>;
export type Member = Static<typeof MemberSchema>;
export type Invitation = Static<typeof InvitationSchema>;
export type ApiKey = Static<typeof ApiKeySchema>;
export type CreatedApiKey = Static<typeof CreatedApiKeySchema>;
export type WorkspaceSettings = Static<typeof WorkspaceSchema>;
export type Overview = Static<typeof OverviewSchema>;
export type OverviewCounts = Static<typeof OverviewCountsSchema>;
export type Webhook = Static<typeof WebhookSchema>;
export type CreatedWebhook = Static<typeof CreatedWebhookSchema>;
export type WebhookDelivery = Static<typeof WebhookDeliverySchema>;
export type Release = Static<typeof ReleaseSchema>;
export type ReleaseItem = Static<typeof ReleaseItemSchema>;
export type ReleaseValidation = Static<typeof ReleaseValidationSchema>;
export type AuditEntry = Static<typeof AuditEntrySchema>;

/** `meta` of list responses (docs/api.md "Pagination"). */
export interface PageMeta {
  page_size: number;
  total_data?: number;
  current_page?: number;
  total_pages?: number;
  next_cursor?: string | null;
}

/** A person as the workflow, comment and notification APIs show one (docs/workflow.md). */
export type Person = Static<typeof PersonSchema>;
/** One stage of a review workflow (D130); `roles` null: any role that may write the item. */
export type WorkflowStage = Static<typeof StageSchema>;
/** A review workflow (GET /workflows, docs/workflow.md "Workflows and stages"). */
export type Workflow = Static<typeof WorkflowSchema>;
/** The body of POST /workflows (and of a PATCH changing all of it). */
export type WorkflowInput = Static<typeof WorkflowCreateBody>;
/** A stage as a POST or PATCH /workflows names it: `id` for a stage kept, none for a new one. */
export type WorkflowStageInput = WorkflowInput['stages'][number];
/** An item's place in its workflow: `workflow` of a covered entry or page (null when none covers it). */
export type WorkflowState = Static<typeof WorkflowStateSchema>;

/** What an entry or page carries of its workflow (absent before the server knows workflows). */
export interface WithWorkflow {
  workflow?: WorkflowState | null;
}
