/**
 * The container readers of src/modules/media/video-dimensions.ts on MP4 and WebM files made by
 * the tests (no database: these are pure file parsers). Also checks that file-type recognises
 * the same test files as video, so the upload suites exercise the real detection path.
 */
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import { describe, expect, it } from 'vitest';
import { videoDimensions, videoDimensionsOfBuffer } from '../src/modules/media/video-dimensions.js';
import { mp4, pdf, png, webm } from './media-fixtures.js';

describe('video dimensions from the container', () => {
  it('reads tkhd of an MP4 (moov first, version 0)', async () => {
    expect(await videoDimensionsOfBuffer(mp4({ width: 640, height: 360 }))).toEqual({ width: 640, height: 360 });
  });

  it('finds moov after mdat, also behind a 64-bit mdat size, on disk', async () => {
    const file = path.join(os.tmpdir(), `quire-mp4-${process.pid}.mp4`);
    await fsp.writeFile(file, mp4({ width: 1920, height: 1080, moovLast: true, largeMdat: true, mdatBytes: 300_000 }));
    try {
      expect(await videoDimensions(file)).toEqual({ width: 1920, height: 1080 });
    } finally {
      await fsp.rm(file, { force: true });
    }
  });

  it('reads version 1 track headers and skips audio tracks', async () => {
    expect(await videoDimensionsOfBuffer(mp4({ width: 1280, height: 720, version: 1, audioFirst: true }))).toEqual({ width: 1280, height: 720 });
  });

  it('swaps width and height for a quarter-turn track matrix (portrait phone video)', async () => {
    expect(await videoDimensionsOfBuffer(mp4({ width: 1920, height: 1080, rotate90: true }))).toEqual({ width: 1080, height: 1920 });
  });

  it('answers null when no track states a size, or the file is cut short', async () => {
    expect(await videoDimensionsOfBuffer(mp4({ width: 0, height: 0, audioOnly: true }))).toBeNull();
    const whole = mp4({ width: 640, height: 360, moovLast: true });
    expect(await videoDimensionsOfBuffer(whole.subarray(0, whole.length - 40))).toBeNull();
    expect(await videoDimensionsOfBuffer(Buffer.alloc(0))).toBeNull();
  });

  it('reads PixelWidth/PixelHeight of a WebM video track, also in a Segment of unknown size', async () => {
    expect(await videoDimensionsOfBuffer(webm({ width: 854, height: 480 }))).toEqual({ width: 854, height: 480 });
    expect(await videoDimensionsOfBuffer(webm({ width: 320, height: 240, unknownSegmentSize: true }))).toEqual({ width: 320, height: 240 });
    expect(await videoDimensionsOfBuffer(webm({ width: 320, height: 240, noVideo: true }))).toBeNull();
  });

  it('answers null for files that are not such containers', async () => {
    expect(await videoDimensionsOfBuffer(pdf())).toBeNull();
    expect(await videoDimensionsOfBuffer(await png(4, 4))).toBeNull();
  });

  it('the test files are recognised by their bytes as MP4, WebM and PDF', async () => {
    expect((await fileTypeFromBuffer(mp4({ width: 2, height: 2 })))?.mime).toBe('video/mp4');
    expect((await fileTypeFromBuffer(webm({ width: 2, height: 2 })))?.mime).toBe('video/webm');
    expect((await fileTypeFromBuffer(pdf()))?.mime).toBe('application/pdf');
  });
});
