/**
 * sharp (libvips) loaded on first use. Its native library adds tens of MiB to the resident set,
 * which a process that only serves content never needs; uploads and transforms pay the load
 * once. libvips' own operation cache is off: derived images are cached in storage instead.
 */
type Sharp = typeof import('sharp').default;

let loading: Promise<Sharp> | null = null;

export function loadSharp(): Promise<Sharp> {
  loading ??= import('sharp').then((mod) => {
    const sharp = ((mod as unknown as { default?: Sharp }).default ?? mod) as Sharp;
    sharp.cache(false);
    return sharp;
  });
  return loading;
}
