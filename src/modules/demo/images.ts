/**
 * The demo workspace's images (issue 27 item 2): a hero image for each demo page and a cover for
 * each post, drawn when the demo is seeded (no image file ships with Quire, none is downloaded).
 * Each is an abstract picture in the colours of the page or post it belongs to — a gradient, two
 * translucent panels and two circles around its focal point, no text, so it reads in every
 * locale — drawn as SVG and rendered by sharp to JPEG (about 0.6 s for all seven), and
 * then stored through the media module's upload core (storeMedia: type from the bytes, exact
 * dimensions, the workspace's storage), so its URL, variants and transforms work like those of
 * any upload.
 */
import { Readable } from 'node:stream';
import type { Context } from '../../context.js';
import type { Actor } from '../auth/permissions.js';
import { storeMedia } from '../media/operations.js';
import { loadSharp } from '../media/sharp.js';
import { spoolStream } from '../media/spool.js';

/** One demo image: its file name, size in pixels, palette and what it shows. */
export interface DemoImage {
  /** The `original_name` of the asset, also its key in the map seedDemoImages returns. */
  name: string;
  width: number;
  height: number;
  /** Background gradient from, to, and two accent colours (#rrggbb). */
  colors: [string, string, string, string];
  /** Where the focal point lies, 0..1 from the left and the top (the accent shapes sit there). */
  focal: [number, number];
  alt: string;
  title: string;
}

const HERO = { width: 1600, height: 700 };
const COVER = { width: 1200, height: 800 };

export const DEMO_IMAGES: DemoImage[] = [
  {
    name: 'home-hero.jpg',
    ...HERO,
    colors: ['#1d3557', '#457b9d', '#f1faee', '#e63946'],
    focal: [0.7, 0.45],
    alt: 'Abstract shapes: two pale overlapping panels and a red circle on a dark blue gradient',
    title: 'Content for every channel',
  },
  {
    name: 'about-hero.jpg',
    ...HERO,
    colors: ['#264653', '#2a9d8f', '#e9c46a', '#f4a261'],
    focal: [0.3, 0.5],
    alt: 'Abstract shapes: two pale overlapping panels and an orange circle on a teal gradient',
    title: 'About this demo',
  },
  {
    name: 'welcome-to-quire.jpg',
    ...COVER,
    colors: ['#3d405b', '#81b29a', '#f2cc8f', '#e07a5f'],
    focal: [0.5, 0.5],
    alt: 'Abstract shapes: two pale overlapping panels and a coral circle on a green-grey gradient',
    title: 'Welcome to the Quire demo blog',
  },
  {
    name: 'modeling-content.jpg',
    ...COVER,
    colors: ['#22223b', '#4a4e69', '#c9ada7', '#f2e9e4'],
    focal: [0.4, 0.4],
    alt: 'Abstract shapes: two pale overlapping panels and a light circle on a violet gradient',
    title: 'Modeling content with types and fields',
  },
  {
    name: 'many-languages.jpg',
    ...COVER,
    colors: ['#003049', '#669bbc', '#fdf0d5', '#c1121f'],
    focal: [0.6, 0.5],
    alt: 'Abstract shapes: two pale overlapping panels and a red circle on a blue gradient',
    title: 'One entry, many languages',
  },
  {
    name: 'keys-and-tokens.jpg',
    ...COVER,
    colors: ['#2b2d42', '#8d99ae', '#edf2f4', '#ef233c'],
    focal: [0.55, 0.45],
    alt: 'Abstract shapes: two pale overlapping panels and a red circle on a slate gradient',
    title: 'Keys, previews and tokens',
  },
  {
    name: 'scheduling.jpg',
    ...COVER,
    colors: ['#283618', '#606c38', '#fefae0', '#dda15e'],
    focal: [0.5, 0.35],
    alt: 'Abstract shapes: two pale overlapping panels and an amber circle on an olive gradient',
    title: 'Scheduling a release',
  },
];

/** The SVG drawing of `image`: a diagonal gradient, two translucent panels and accent circles around the focal point. */
export function demoImageSvg(image: DemoImage): string {
  const { width: w, height: h, colors } = image;
  const [bg1, bg2, light, accent] = colors;
  const fx = Math.round(image.focal[0] * w);
  const fy = Math.round(image.focal[1] * h);
  const r = Math.round(Math.min(w, h) * 0.22);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">`,
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${bg1}"/><stop offset="1" stop-color="${bg2}"/></linearGradient></defs>`,
    `<rect width="${w}" height="${h}" fill="url(#g)"/>`,
    `<rect x="${Math.round(w * 0.08)}" y="${Math.round(h * 0.16)}" width="${Math.round(w * 0.42)}" height="${Math.round(h * 0.62)}" rx="${Math.round(h * 0.03)}" fill="${light}" fill-opacity="0.18"/>`,
    `<rect x="${Math.round(w * 0.16)}" y="${Math.round(h * 0.26)}" width="${Math.round(w * 0.42)}" height="${Math.round(h * 0.62)}" rx="${Math.round(h * 0.03)}" fill="${light}" fill-opacity="0.28"/>`,
    `<circle cx="${fx}" cy="${fy}" r="${r}" fill="${accent}" fill-opacity="0.85"/>`,
    `<circle cx="${fx + Math.round(r * 0.9)}" cy="${fy - Math.round(r * 0.5)}" r="${Math.round(r * 0.45)}" fill="${light}" fill-opacity="0.9"/>`,
    `</svg>`,
  ].join('');
}

/** `image` rendered as a JPEG (quality 82, progressive). */
export async function renderDemoImage(image: DemoImage): Promise<Buffer> {
  const sharp = await loadSharp();
  return sharp(Buffer.from(demoImageSvg(image)))
    .jpeg({ quality: 82, progressive: true })
    .toBuffer();
}

/**
 * Renders and stores every demo image in the workspace of `actor`, in folder `demo`, in the
 * caller's transaction; returns the media ids by file name. `stored` receives the storage key of
 * each file as it lands, so a caller whose transaction fails later can remove the files again.
 */
export async function seedDemoImages(tx: Context, actor: Actor, stored: string[]): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const image of DEMO_IMAGES) {
    const bytes = await renderDemoImage(image);
    const file = await spoolStream(tx.config, Readable.from([bytes]), tx.config.mediaMaxBytes, { hash: false });
    const record = await storeMedia(
      tx,
      { workspaceId: actor.workspaceId, userId: actor.userId },
      {
        file,
        originalName: image.name,
        alt_text: image.alt,
        title: image.title,
        description: null,
        folder: 'demo',
        focal_x: image.focal[0],
        focal_y: image.focal[1],
      },
    );
    if (record.storage_key) stored.push(record.storage_key);
    ids.set(image.name, record.id);
  }
  return ids;
}
