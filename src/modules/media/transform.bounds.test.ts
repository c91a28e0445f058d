import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundTransform, DEFAULT_TRANSFORM_SIZES, FITS, type TransformSpec } from './transform.js';

const spec = (over: Partial<TransformSpec>): TransformSpec => ({ w: null, h: null, fit: 'cover', fm: 'png', q: null, ...over });
const photo = { width: 800, height: 600 };

describe('boundTransform', () => {
  it('rounds a width up to the next size; the height follows the requested aspect ratio', () => {
    expect(boundTransform(spec({ w: 123 }), photo, 'image', DEFAULT_TRANSFORM_SIZES)).toMatchObject({ w: 128, h: null });
    expect(boundTransform(spec({ w: 320, h: 180 }), photo, 'image', [100, 400])).toMatchObject({ w: 400, h: 225 });
    expect(boundTransform(spec({ h: 61 }), photo, 'image', DEFAULT_TRANSFORM_SIZES)).toMatchObject({ w: null, h: 64 });
  });

  it('never enlarges a raster image; shrinks a box keeping its shape, except fill which clamps each side', () => {
    expect(boundTransform(spec({ w: 4000 }), photo, 'image', DEFAULT_TRANSFORM_SIZES).w).toBe(800);
    expect(boundTransform(spec({ h: 4000 }), photo, 'image', DEFAULT_TRANSFORM_SIZES).h).toBe(600);
    expect(boundTransform(spec({ w: 1600, h: 1600 }), photo, 'image', DEFAULT_TRANSFORM_SIZES)).toMatchObject({ w: 600, h: 600 });
    expect(boundTransform(spec({ w: 4000, h: 1, fit: 'fill' }), photo, 'image', DEFAULT_TRANSFORM_SIZES)).toMatchObject({ w: 800, h: 1 });
  });

  it('lets SVG rasterize above its intrinsic size, within the sizes', () => {
    expect(boundTransform(spec({ w: 500 }), { width: 24, height: 24 }, 'svg', DEFAULT_TRANSFORM_SIZES).w).toBe(500);
  });

  it('rounds quality up to a multiple of 5', () => {
    expect(boundTransform(spec({ w: 100, q: 61, fm: 'jpg' }), photo, 'image', DEFAULT_TRANSFORM_SIZES).q).toBe(65);
    expect(boundTransform(spec({ w: 100, q: 1, fm: 'jpg' }), photo, 'image', DEFAULT_TRANSFORM_SIZES).q).toBe(5);
  });

  it('for any request, sizes stay within the original (raster) and at least 1', () => {
    const dim = fc.option(fc.integer({ min: 1, max: 4000 }), { nil: null });
    fc.assert(
      fc.property(dim, dim, fc.constantFrom(...FITS), fc.integer({ min: 1, max: 4000 }), fc.integer({ min: 1, max: 4000 }), (w, h, fit, W, H) => {
        const out = boundTransform(spec({ w, h, fit }), { width: W, height: H }, 'image', DEFAULT_TRANSFORM_SIZES);
        if (out.w !== null) expect(out.w).toBeGreaterThanOrEqual(1);
        if (out.w !== null) expect(out.w).toBeLessThanOrEqual(W);
        if (out.h !== null) expect(out.h).toBeLessThanOrEqual(H);
        if (out.h !== null) expect(out.h).toBeGreaterThanOrEqual(1);
      }),
    );
  });
});
