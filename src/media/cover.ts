/**
 * A unit's cover photo as pages show it (staykit_internal.product_cover, migration 0232, picks it): a `<picture>`
 * offering AVIF and WebP to browsers that take them and JPEG to every other, each in its widths for the browser
 * to choose from (`srcset`), the alt text in the reader's language and the dominant colour while it loads.
 */
import { escapeHtml as e } from '../common/html.js';
import { localizedText } from '../common/languages.js';
import { CONTENT_TYPES } from './store.js';
import type { VariantFormat } from './formats.js';

export interface CoverPhoto {
  media_id: string;
  url: string;
  width: number;
  height: number;
  dominant_color: string;
  variants: { width: number; height: number; format: VariantFormat; url: string }[];
  alt: Record<string, string>;
}

/** `url 400w, url 800w, …` of one format, paths prefixed with `base` (the public URL for e-mails; '' on our pages). */
export function srcset(cover: CoverPhoto, format: VariantFormat, base = ''): string {
  return cover.variants.filter((variant) => variant.format === format)
    .map((variant) => `${base}${variant.url} ${variant.width}w`).join(', ');
}

/** The picture at up to `maxWidth` CSS pixels (the page's column), lazily decoded. */
export function coverPicture(cover: CoverPhoto, language: string, maxWidth = 640): string {
  const sizes = `(max-width: ${maxWidth}px) 100vw, ${maxWidth}px`;
  const sources = (['avif', 'webp'] as const)
    .map((format) => `<source type="${CONTENT_TYPES[format]}" srcset="${e(srcset(cover, format))}" sizes="${sizes}">`).join('');
  return `<picture>${sources}<img src="${e(cover.url)}" srcset="${e(srcset(cover, 'jpeg'))}" sizes="${sizes}" width="${cover.width}" height="${cover.height}"`
    + ` alt="${e(localizedText(cover.alt, language))}" decoding="async" style="background:${e(cover.dominant_color)}"></picture>`;
}
