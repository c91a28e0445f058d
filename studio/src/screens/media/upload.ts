/**
 * One file to POST /media/upload with upload progress. fetch() reports no upload progress, so
 * this uses XMLHttpRequest, sending what the Studio's API client sends (api/client.ts): the
 * session cookie (same origin), `X-Workspace-ID` and the session's `X-CSRF-Token`. A refusal
 * becomes the client's ApiError with the envelope's code, message and trace id (413 too large,
 * 415 not an image, video or PDF).
 */
import { ApiError, currentWorkspaceId } from '../../api/client';
import type { MediaAsset } from '../../api/types';

export interface UploadOptions {
  /** folder path to store the file in ('' or undefined: top level) */
  folder?: string;
  /** the session's CSRF token */
  csrfToken: string | null;
  /** fraction sent, 0..1 */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

interface UploadEnvelope {
  success?: boolean;
  data?: MediaAsset;
  code?: string;
  message?: string;
  errors?: ApiError['errors'];
  traceId?: string;
}

function parseEnvelope(text: string): UploadEnvelope | null {
  try {
    return JSON.parse(text) as UploadEnvelope;
  } catch {
    return null;
  }
}

/** Uploads `file`; resolves with the stored asset, rejects with ApiError. */
export function uploadWithProgress(file: File, options: UploadOptions): Promise<MediaAsset> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/v1/manage/media/upload');
    xhr.setRequestHeader('Accept', 'application/json');
    const ws = currentWorkspaceId();
    if (ws) xhr.setRequestHeader('X-Workspace-ID', ws);
    if (options.csrfToken) xhr.setRequestHeader('X-CSRF-Token', options.csrfToken);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) options.onProgress?.(e.loaded / e.total);
    };
    xhr.onload = () => {
      const body = parseEnvelope(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300 && body?.success && body.data) {
        options.onProgress?.(1);
        resolve(body.data);
        return;
      }
      reject(
        new ApiError(
          xhr.status,
          body?.code ?? 'INTERNAL_ERROR',
          body?.message ?? `The server answered ${xhr.status}.`,
          body?.errors ?? null,
          body?.traceId ?? xhr.getResponseHeader('X-Request-Id'),
        ),
      );
    };
    xhr.onerror = () => reject(new ApiError(0, 'NETWORK_ERROR', 'Quire could not be reached: check your connection and try again.', null, null));
    xhr.onabort = () => reject(new DOMException('The upload was cancelled.', 'AbortError'));
    options.signal?.addEventListener('abort', () => xhr.abort());
    const form = new FormData();
    if (options.folder) form.append('folder', options.folder);
    form.append('file', file, file.name);
    xhr.send(form);
  });
}
