/** The XHR upload sends the API client's headers and the folder, reports progress, and turns a refusal into ApiError. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, setWorkspaceId } from '../../api/client';
import { uploadWithProgress } from './upload';

class FakeXhr {
  static last: FakeXhr;
  headers: Record<string, string> = {};
  method = '';
  url = '';
  body: FormData | null = null;
  status = 0;
  responseText = '';
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  getResponseHeader() {
    return null;
  }
  send(body: FormData) {
    this.body = body;
  }
  abort() {
    this.onabort?.();
  }
  answer(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
  setWorkspaceId(null);
});

describe('upload with progress', () => {
  it('sends X-Workspace-ID, X-CSRF-Token, the folder and the file, and resolves with the asset', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    setWorkspaceId('ws-1');
    const progress = vi.fn();
    const done = uploadWithProgress(new File(['abc'], 'a.png'), { folder: 'blog', csrfToken: 't-1', onProgress: progress });
    const xhr = FakeXhr.last;
    expect([xhr.method, xhr.url]).toEqual(['POST', '/api/v1/manage/media/upload']);
    expect(xhr.headers).toMatchObject({ 'X-Workspace-ID': 'ws-1', 'X-CSRF-Token': 't-1' });
    expect(xhr.body?.get('folder')).toBe('blog');
    expect((xhr.body?.get('file') as File).name).toBe('a.png');
    xhr.upload.onprogress?.({ lengthComputable: true, loaded: 1, total: 4 });
    expect(progress).toHaveBeenLastCalledWith(0.25);
    xhr.answer(201, { success: true, message: 'Success', data: { id: 'm1' }, meta: null });
    await expect(done).resolves.toEqual({ id: 'm1' });
  });
  it('rejects with the envelope as ApiError (415 with the server message and trace id)', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const done = uploadWithProgress(new File(['abc'], 'a.txt'), { csrfToken: null });
    FakeXhr.last.answer(415, { success: false, code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Not an image, video or PDF', data: null, traceId: 'req_7' });
    const err = await done.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Not an image, video or PDF', traceId: 'req_7' });
    expect(FakeXhr.last.body?.get('folder')).toBeNull();
  });
});
