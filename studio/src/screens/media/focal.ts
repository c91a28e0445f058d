/**
 * Focal-point arithmetic shared by the detail panel's picker and its crop previews. A focal point
 * is (x, y) in 0..1 from the left and top (docs/media.md); `fit=cover` crops scale the image to
 * cover the box and cut the box out centred on it, clamped to the image's edges. The preview of
 * an unsaved point reproduces that cut with CSS (`object-position`), so it moves as you click.
 */

export interface Focal {
  x: number;
  y: number;
}

/** The crops the detail panel previews: name, aspect (w/h) and the transform size asked for. */
export const CROPS = [
  { name: '1:1', w: 200, h: 200 },
  { name: '16:9', w: 320, h: 180 },
  { name: '4:5', w: 160, h: 200 },
] as const;

/** Clamps to 0..1 and rounds to 3 decimals (what the picker stores). */
export function clampUnit(v: number): number {
  if (!Number.isFinite(v)) return 0.5;
  return Math.round(Math.min(1, Math.max(0, v)) * 1000) / 1000;
}

/**
 * The CSS `object-position` (in %) that shows the `fit=cover` cut of an image of `imgW`×`imgH`
 * in a box of `boxW`×`boxH` centred on `focal` and clamped to the edges, as the server cuts it.
 */
export function coverPosition(imgW: number, imgH: number, boxW: number, boxH: number, focal: Focal): { x: number; y: number } {
  const scale = Math.max(boxW / imgW, boxH / imgH);
  const axis = (size: number, box: number, f: number) => {
    const scaled = size * scale;
    const free = scaled - box;
    if (free <= 0.5) return 50;
    const offset = Math.min(free, Math.max(0, f * scaled - box / 2));
    return Math.round((offset / free) * 10000) / 100;
  };
  return { x: axis(imgW, boxW, focal.x), y: axis(imgH, boxH, focal.y) };
}

/** The server's cover crop of an asset URL for a preview size. */
export function cropUrl(url: string, w: number, h: number): string {
  return `${url}?w=${w}&h=${h}&fit=cover`;
}
