/**
 * A photo as HTML, written once for the server's pages (the guest page, through cover.ts) and the booking widget
 * (web/widget): a `<picture>` offering AVIF and WebP to browsers that take them and JPEG to every other, each in its
 * widths for the browser to choose from (`srcset`, `sizes`), the alt text, the intrinsic size (no layout shift) and
 * the dominant colour while it loads. Browser-safe: it imports no server code
 * (store.ts only its constants).
 */
import { escapeHtml as e } from '../common/html.js';
import type { VariantFormat } from './formats.js';
import { CONTENT_TYPES } from './store.js';

/** The fields of a media row (or a catalogue image) a picture is made of. */
export interface PictureSource {
  url: string;
  width: number;
  height: number;
  dominant_color: string;
  variants: { width: number; format: VariantFormat; url: string }[];
}

export interface PictureOptions {
  /** Already in the reader's language. */
  alt: string;
  /** The `sizes` attribute: how wide the picture is shown, for the browser to pick a width. */
  sizes: string;
  /** Put before every path: the public URL for e-mails; '' for paths on our pages and for absolute URLs. */
  base?: string;
  /** `loading="lazy"`: for a photo not shown at first (a gallery's later slides). */
  lazy?: boolean;
}

/** `url 400w, url 800w, …` of one format, paths prefixed with `base`. */
export function srcset(photo: PictureSource, format: VariantFormat, base = ''): string {
  return photo.variants.filter((variant) => variant.format === format)
    .map((variant) => `${base}${variant.url} ${variant.width}w`).join(', ');
}

export function pictureHtml(photo: PictureSource, { alt, sizes, base = '', lazy = false }: PictureOptions): string {
  const sources = (['avif', 'webp'] as const).filter((format) => photo.variants.some((variant) => variant.format === format))
    .map((format) => `<source type="${CONTENT_TYPES[format]}" srcset="${e(srcset(photo, format, base))}" sizes="${e(sizes)}">`).join('');
  return `<picture>${sources}<img src="${e(base + photo.url)}" srcset="${e(srcset(photo, 'jpeg', base))}" sizes="${e(sizes)}" width="${photo.width}" height="${photo.height}"`
    + ` alt="${e(alt)}"${lazy ? ' loading="lazy"' : ''} decoding="async" style="background:${e(photo.dominant_color)}"></picture>`;
}
