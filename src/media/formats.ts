/**
 * The image formats Staykit accepts, recognised by their bytes, never by the Content-Type or file name a client
 * sends: a renamed text file is refused (415) whatever it claims to be. HEIC is what phones take photos in.
 */
export const MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/avif', 'image/heic'] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

/** The formats of the resized copies: every browser shows JPEG; WebP and AVIF are smaller where understood. */
export const VARIANT_FORMATS = ['avif', 'webp', 'jpeg'] as const;
export type VariantFormat = (typeof VARIANT_FORMATS)[number];

/**
 * The widths (px) of the resized copies; an image narrower than one gets no copy wider than itself. 1200 is for
 * phones at 3x, which want ~1,170 device pixels for a full-width photo and would otherwise load the 1600 copy.
 */
export const VARIANT_WIDTHS = [400, 800, 1200, 1600] as const;

const FORMAT_NAMES: Record<VariantFormat, string> = { avif: 'AVIF', webp: 'WebP', jpeg: 'JPEG' };

/** What the copies are, for the API's descriptions. */
export const VARIANTS_DESCRIPTION = `${VARIANT_WIDTHS.slice(0, -1).join(', ')} and ${VARIANT_WIDTHS.at(-1)} pixels wide, none wider than the upload; `
  + VARIANT_FORMATS.map((format) => FORMAT_NAMES[format]).join(', ');

const AVIF_BRANDS = new Set(['avif', 'avis']);
const HEIC_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis']);

function ascii(bytes: Uint8Array, start: number, end: number): string {
  return String.fromCharCode(...bytes.subarray(start, end));
}

/** The ISO-BMFF brands (major and compatible) of an AVIF/HEIF file's `ftyp` box. */
function ftypBrands(bytes: Uint8Array): string[] {
  if (bytes.length < 16 || ascii(bytes, 4, 8) !== 'ftyp') return [];
  const size = Math.min(new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0), bytes.length);
  const brands = [ascii(bytes, 8, 12)];
  for (let offset = 16; offset + 4 <= size; offset += 4) brands.push(ascii(bytes, offset, offset + 4));
  return brands;
}

/** The format of an image by its first bytes, or null when it is none Staykit accepts. */
export function sniffMediaType(bytes: Uint8Array): MediaType | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 8 && ascii(bytes, 0, 8) === '\x89PNG\r\n\x1a\n') return 'image/png';
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return 'image/webp';
  const brands = ftypBrands(bytes);
  if (brands.some((brand) => AVIF_BRANDS.has(brand))) return 'image/avif';
  if (brands.some((brand) => HEIC_BRANDS.has(brand))) return 'image/heic';
  return null;
}
