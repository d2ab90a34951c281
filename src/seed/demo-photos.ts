/**
 * Photos for the demo's units, drawn rather than downloaded (nothing is fetched at run time, and drawings need no
 * licence): per unit an outside view, a living room and a bedroom as flat illustrations in the unit's colours,
 * rendered from SVG and then uploaded exactly as a manager's photo is — through the compute pool into the media store
 * (src/media) — so the widget, the guest page and e-mails show them like any upload.
 */
import sharp from 'sharp';
import type { Database } from '../db/types.js';
import type { ComputePool } from '../compute/pool.js';
import { processUpload } from '../media/processing.js';
import { recordMedia } from '../media/queries.js';
import { CONTENT_TYPES, mediaKey, type MediaStore } from '../media/store.js';

export interface DemoMedia {
  compute: ComputePool;
  store: MediaStore;
  /** Longest resizing of one photo, in ms (STAYKIT_MEDIA_TIMEOUT). */
  timeLimitMs: number;
}

export type DemoScene = 'beach' | 'dunes' | 'harbour' | 'forest';

interface Palette {
  sky: [string, string];
  ground: string;
  walls: string;
  roof: string;
  accent: string;
  interior: string;
}

const PALETTES: Record<DemoScene, Palette> = {
  beach: { sky: ['#7cc4f2', '#e6f4fc'], ground: '#ecd9a8', walls: '#f7f3ea', roof: '#3b6e8f', accent: '#f2a541', interior: '#f4efe6' },
  dunes: { sky: ['#9ccfe6', '#f3f0e2'], ground: '#d9c48d', walls: '#e9e2cf', roof: '#7a4b36', accent: '#6c9a5b', interior: '#efe8da' },
  harbour: { sky: ['#8fb4d9', '#eef2f7'], ground: '#8a97a6', walls: '#c9644a', roof: '#4a5563', accent: '#2f6f8f', interior: '#ece9e4' },
  forest: { sky: ['#a9d3c9', '#f1f4ea'], ground: '#6f8f4e', walls: '#8b5e3c', roof: '#3f4a3a', accent: '#c58b3f', interior: '#f0e6d6' },
};

const W = 1600;
const H = 1067;

function svg(body: string, palette: Palette): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">
<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${palette.sky[0]}"/><stop offset="1" stop-color="${palette.sky[1]}"/></linearGradient>
<linearGradient id="shade" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="0.18"/></linearGradient></defs>
${body}<rect width="${W}" height="${H}" fill="url(#shade)"/></svg>`;
}

function house(x: number, y: number, width: number, palette: Palette): string {
  const height = width * 0.55;
  const windows = [0.18, 0.62].map((at) => `<rect x="${x + width * at}" y="${y + height * 0.3}" width="${width * 0.2}" height="${height * 0.28}" fill="#bfe0f2" stroke="#fff" stroke-width="8"/>`).join('');
  return `<rect x="${x}" y="${y}" width="${width}" height="${height}" fill="${palette.walls}"/>
<polygon points="${x - 40},${y + 4} ${x + width / 2},${y - width * 0.38} ${x + width + 40},${y + 4}" fill="${palette.roof}"/>
${windows}<rect x="${x + width * 0.44}" y="${y + height * 0.5}" width="${width * 0.13}" height="${height * 0.5}" fill="${palette.accent}"/>`;
}

function outside(scene: DemoScene, palette: Palette): string {
  const horizon = 640;
  const sun = `<circle cx="1270" cy="210" r="90" fill="#fff6d5" opacity="0.95"/>`;
  if (scene === 'forest') {
    const trees = Array.from({ length: 14 }, (_, index) => {
      const x = 40 + index * 118 + (index % 3) * 17;
      const top = 300 + (index % 4) * 45;
      return `<polygon points="${x},${horizon + 80} ${x + 60},${top} ${x + 120},${horizon + 80}" fill="${index % 2 ? '#2f5a3a' : '#3d6b45'}"/>`;
    }).join('');
    return svg(`<rect width="${W}" height="${H}" fill="url(#sky)"/>${sun}${trees}<rect y="${horizon + 60}" width="${W}" height="${H}" fill="${palette.ground}"/>${house(560, 560, 480, palette)}`, palette);
  }
  if (scene === 'harbour') {
    const floors = [0, 1, 2, 3].map((floor) => [0, 1, 2, 3, 4].map((column) =>
      `<rect x="${470 + column * 130}" y="${300 + floor * 95}" width="70" height="60" fill="#dcecf5"/>`).join('')).join('');
    const boats = [200, 1180, 1390].map((x, index) => `<path d="M${x} ${horizon + 150} h${150 - index * 20} l-30 40 h-${90 - index * 20} z" fill="#fff"/><line x1="${x + 60}" y1="${horizon + 150}" x2="${x + 60}" y2="${horizon + 20}" stroke="#555" stroke-width="6"/>`).join('');
    return svg(`<rect width="${W}" height="${H}" fill="url(#sky)"/>${sun}<rect x="430" y="260" width="700" height="420" fill="${palette.walls}"/>${floors}
<rect y="${horizon + 40}" width="${W}" height="${H}" fill="${palette.accent}"/><rect y="${horizon + 30}" width="${W}" height="22" fill="${palette.ground}"/>${boats}`, palette);
  }
  const dune = scene === 'dunes' ? 520 : 700;
  const grass = Array.from({ length: 30 }, (_, index) => `<path d="M${index * 55 + 10} ${dune + 40} q10 -60 22 -4" stroke="#7f9a56" stroke-width="5" fill="none"/>`).join('');
  return svg(`<rect width="${W}" height="${H}" fill="url(#sky)"/>${sun}<rect y="${horizon - 60}" width="${W}" height="200" fill="#4f97c7"/>
<path d="M0 ${dune} Q400 ${dune - 120} 800 ${dune - 20} T1600 ${dune - 40} V${H} H0 Z" fill="${palette.ground}"/>${grass}${house(scene === 'dunes' ? 620 : 340, dune - 200, 520, palette)}`, palette);
}

function livingRoom(palette: Palette): string {
  return svg(`<rect width="${W}" height="${H}" fill="${palette.interior}"/><rect y="760" width="${W}" height="${H}" fill="#c9a77c"/>
<rect x="980" y="160" width="460" height="420" fill="url(#sky)" stroke="#fff" stroke-width="22"/><line x1="1210" y1="160" x2="1210" y2="580" stroke="#fff" stroke-width="14"/>
<rect x="220" y="540" width="640" height="200" rx="40" fill="${palette.roof}"/><rect x="250" y="450" width="580" height="140" rx="36" fill="${palette.roof}" opacity="0.85"/>
<rect x="290" y="480" width="150" height="90" rx="24" fill="${palette.accent}"/><ellipse cx="620" cy="900" rx="420" ry="70" fill="${palette.walls}" opacity="0.8"/>
<rect x="540" y="760" width="220" height="24" fill="#6b4b32"/><line x1="150" y1="760" x2="150" y2="330" stroke="#333" stroke-width="8"/><polygon points="100,330 200,330 175,260 125,260" fill="${palette.accent}"/>
<rect x="1320" y="650" width="80" height="110" fill="#8c5a3c"/><circle cx="1360" cy="610" r="70" fill="#5f8f4e"/>`, palette);
}

function bedroom(palette: Palette): string {
  return svg(`<rect width="${W}" height="${H}" fill="${palette.interior}"/><rect y="800" width="${W}" height="${H}" fill="#b99672"/>
<rect x="420" y="380" width="760" height="170" rx="20" fill="#8b6a4e"/><rect x="380" y="540" width="840" height="260" rx="24" fill="#fbfaf7"/>
<rect x="380" y="640" width="840" height="160" rx="20" fill="${palette.roof}"/><rect x="470" y="480" width="260" height="110" rx="40" fill="#fff"/><rect x="870" y="480" width="260" height="110" rx="40" fill="#fff"/>
<rect x="1260" y="640" width="160" height="160" fill="#8b6a4e"/><circle cx="1340" cy="600" r="40" fill="${palette.accent}"/><rect x="160" y="640" width="160" height="160" fill="#8b6a4e"/>
<rect x="640" y="140" width="320" height="200" fill="url(#sky)" stroke="${palette.accent}" stroke-width="16"/>`, palette);
}

/** The three photos of a unit as JPEG files, as a camera would hand them over. */
export async function drawDemoPhotos(scene: DemoScene): Promise<Buffer[]> {
  const palette = PALETTES[scene];
  return Promise.all([outside(scene, palette), livingRoom(palette), bedroom(palette)].map((drawing) =>
    sharp(Buffer.from(drawing)).jpeg({ quality: 88 }).toBuffer()));
}

const ALT = [
  { default: 'The house from outside', nl: 'Het huis van buiten', de: 'Das Haus von außen' },
  { default: 'The living room', nl: 'De woonkamer', de: 'Das Wohnzimmer' },
  { default: 'The bedroom', nl: 'De slaapkamer', de: 'Das Schlafzimmer' },
];

/**
 * Uploads each unit's photos for the organization and lists them on the unit (the outside view as cover). Per photo:
 * resized in the compute pool, then recorded and its files written in a transaction acting as the organization.
 */
export async function seedDemoPhotos(db: Database, organizationId: string, units: { id: string; scene: DemoScene }[], media: DemoMedia): Promise<number> {
  let count = 0;
  for (const unit of units) {
    const images: Record<string, unknown>[] = [];
    for (const [index, photo] of (await drawDemoPhotos(unit.scene)).entries()) {
      const image = await processUpload(media.compute, { organizationId, bytes: photo, maxPixels: W * H }, media.timeLimitMs);
      const row = await db.transaction(async (tx) => {
        await tx.query(`SELECT set_config('staykit.organization_id', $1, true)`, [organizationId]);
        const added = await recordMedia(tx, image, { bytes: photo, filename: `${unit.scene}-${index + 1}.jpg` }, 2_147_483_647);
        for (const variant of image.variants) {
          await media.store.put(mediaKey(image.hash, variant.width, variant.format), variant.data, CONTENT_TYPES[variant.format]);
        }
        return added;
      });
      images.push({ media_id: row.id, alt: ALT[index], ...(index === 0 ? { cover: true } : {}) });
      count += 1;
    }
    await db.query('UPDATE api.products SET images = $1::json WHERE organization_id = $2 AND id = $3', [JSON.stringify(images), organizationId, unit.id]);
  }
  return count;
}
