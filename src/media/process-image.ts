/**
 * The compute task that turns an upload into what Staykit stores (run in the compute pool's threads: decoding and
 * encoding a phone photo takes seconds of CPU, which must never hold the event loop). It decodes the image once —
 * refusing one that is not an image of an accepted format, or that declares more pixels than allowed before any
 * pixel is decoded (a decompression bomb) — turns it upright by its EXIF orientation, and encodes the resized
 * variants. The variants carry no metadata at all: EXIF location data, camera serials and the like never leave the
 * thread. The content hash (of the organization and the bytes) is computed here too, being CPU work on the upload.
 */
import { createHash } from 'node:crypto';
import sharp, { type Metadata, type OutputInfo, type Sharp } from 'sharp';
import { sniffMediaType, VARIANT_FORMATS, VARIANT_WIDTHS, type MediaType, type VariantFormat } from './formats.js';

export interface ProcessImageInput {
  organizationId: string;
  bytes: Uint8Array;
  /** Largest accepted width × height (STAYKIT_MEDIA_MAX_PIXELS). */
  maxPixels: number;
}

export interface EncodedVariant {
  width: number;
  height: number;
  format: VariantFormat;
  data: Uint8Array;
}

export type ProcessImageOutput =
  | { ok: true; contentType: MediaType; hash: string; width: number; height: number; dominantColor: string; variants: EncodedVariant[] }
  | { ok: false; reason: 'not-an-image' }
  | { ok: false; reason: 'too-many-pixels'; pixels: number };

/** Quality settings: visually lossless for photos at a fraction of the size. */
const ENCODERS: Record<VariantFormat, (image: Sharp) => Sharp> = {
  avif: (image) => image.avif({ quality: 55, effort: 2 }),
  webp: (image) => image.webp({ quality: 80 }),
  // JPEG has no transparency: a PNG's transparent parts become white, as on a page.
  jpeg: (image) => image.flatten({ background: '#ffffff' }).jpeg({ quality: 82, mozjpeg: true }),
};

/** The upright, decoded image as raw pixels, or why it cannot be had. */
type Decoded =
  | { ok: true; raw: Buffer; info: OutputInfo }
  | { ok: false; reason: 'not-an-image' }
  | { ok: false; reason: 'too-many-pixels'; pixels: number };

/** Phones' HEIC (HEVC) is outside sharp's bundled decoders: libheif in WebAssembly decodes it. */
async function decodeHeic(bytes: Uint8Array, maxPixels: number, largestWidth: number): Promise<Decoded> {
  const { default: heic } = await import('heic-decode');
  const images = await heic.all({ buffer: bytes });
  try {
    const primary = images[0];
    if (!primary) return { ok: false, reason: 'not-an-image' };
    const pixels = primary.width * primary.height;
    if (pixels > maxPixels) return { ok: false, reason: 'too-many-pixels', pixels };
    const decoded = await primary.decode();
    const { data, info } = await sharp(Buffer.from(decoded.data.buffer, decoded.data.byteOffset, decoded.data.byteLength), {
      raw: { width: decoded.width, height: decoded.height, channels: 4 },
    }).resize({ width: largestWidth, withoutEnlargement: true }).raw().toBuffer({ resolveWithObject: true });
    return { ok: true, raw: data, info };
  } finally {
    images.dispose();
  }
}

async function decode(bytes: Uint8Array, contentType: MediaType, maxPixels: number): Promise<Decoded> {
  const largestWidth = VARIANT_WIDTHS[VARIANT_WIDTHS.length - 1]!;
  if (contentType === 'image/heic') return decodeHeic(bytes, maxPixels, largestWidth);
  let metadata: Metadata;
  try {
    metadata = await sharp(bytes).metadata();
  } catch {
    return { ok: false, reason: 'not-an-image' };
  }
  const pixels = (metadata.width ?? 0) * (metadata.height ?? 0) * (metadata.pages ?? 1);
  if (pixels > maxPixels) return { ok: false, reason: 'too-many-pixels', pixels };
  try {
    // One decode, shrunk on load to the largest variant; `rotate()` applies the EXIF orientation.
    const { data, info } = await sharp(bytes, { limitInputPixels: maxPixels, failOn: 'error' })
      .rotate().resize({ width: largestWidth, withoutEnlargement: true }).raw().toBuffer({ resolveWithObject: true });
    return { ok: true, raw: data, info };
  } catch {
    // A header that promised an image over a body that is not one (truncated, corrupt).
    return { ok: false, reason: 'not-an-image' };
  }
}

function hex(channel: number): string {
  return Math.round(channel).toString(16).padStart(2, '0');
}

export async function processImage(input: ProcessImageInput): Promise<ProcessImageOutput> {
  const { bytes, maxPixels } = input;
  const contentType = sniffMediaType(bytes);
  if (!contentType) return { ok: false, reason: 'not-an-image' };
  const decoded = await decode(bytes, contentType, maxPixels);
  if (!decoded.ok) return decoded;
  const { raw, info } = decoded;
  const pixels = () => sharp(raw, { raw: { width: info.width, height: info.height, channels: info.channels } });

  const widths = [...new Set(VARIANT_WIDTHS.map((width) => Math.min(width, info.width)))];
  const variants: EncodedVariant[] = [];
  for (const width of widths) {
    for (const format of VARIANT_FORMATS) {
      const { data, info: encoded } = await ENCODERS[format](pixels().resize({ width })).toBuffer({ resolveWithObject: true });
      variants.push({ width: encoded.width, height: encoded.height, format, data });
    }
  }
  const { dominant } = await pixels().stats();
  const hash = createHash('sha256').update(`${input.organizationId}:`).update(bytes).digest('hex').slice(0, 32);
  const largest = variants[variants.length - 1]!;
  return {
    ok: true, contentType, hash, width: largest.width, height: largest.height,
    dominantColor: `#${hex(dominant.r)}${hex(dominant.g)}${hex(dominant.b)}`, variants,
  };
}
