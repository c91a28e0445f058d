/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    /** The preview session of this request (a valid token in the preview cookie), or null; see src/middleware.ts. */
    preview: import('./lib/quire').PreviewSession | null;
  }
}
