/**
 * Turning what a caller has (a Blob or File, a web ReadableStream, a Node.js stream or any async
 * iterable of bytes) into a Blob for a multipart upload. A Blob can be sent again, so an upload
 * is retried with the same body and the same Idempotency-Key; a stream is read once into memory
 * (uploads are at most 10 MB). No Node.js built-ins: a Node stream is used as an async iterable.
 */

/** What `media.upload` accepts. */
export type UploadSource = Blob | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array | string> | ArrayBuffer | Uint8Array;

function isAsyncIterable(value: unknown): value is AsyncIterable<Uint8Array | string> {
  return typeof value === 'object' && value !== null && typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function';
}

/** `source` as a Blob of type `type` (a Blob is returned as it is). */
export async function toBlob(source: UploadSource, type?: string): Promise<Blob> {
  if (typeof Blob !== 'undefined' && source instanceof Blob) return source;
  if (source instanceof ArrayBuffer || source instanceof Uint8Array) return new Blob([source as BlobPart], { type });
  if (typeof ReadableStream !== 'undefined' && source instanceof ReadableStream) {
    const blob = await new Response(source).blob();
    return type ? new Blob([blob], { type }) : blob;
  }
  if (isAsyncIterable(source)) {
    const parts: BlobPart[] = [];
    for await (const chunk of source) parts.push(typeof chunk === 'string' ? chunk : (chunk as BlobPart));
    return new Blob(parts, { type });
  }
  throw new TypeError('upload: expected a Blob, File, ReadableStream, Node.js stream, ArrayBuffer or Uint8Array');
}

/** The file name of a File (or anything with a `name`, such as a Node fs.ReadStream's path), if any. */
export function nameOf(source: unknown): string | undefined {
  const name = (source as { name?: unknown; path?: unknown } | null)?.name ?? (source as { path?: unknown } | null)?.path;
  if (typeof name !== 'string' || !name) return undefined;
  return name.split(/[\\/]/).pop() || undefined;
}
