/**
 * A unit's cover photo as pages show it (staykit_internal.product_cover, migration 0232, picks it): the picture of
 * picture.ts at the page's column width, the alt text in the reader's language.
 */
import { localizedText } from '../common/languages.js';
import type { VariantFormat } from './formats.js';
import { pictureHtml } from './picture.js';

export interface CoverPhoto {
  media_id: string;
  url: string;
  width: number;
  height: number;
  dominant_color: string;
  variants: { width: number; height: number; format: VariantFormat; url: string }[];
  alt: Record<string, string>;
}

/** The picture at up to `maxWidth` CSS pixels (the page's column), lazily decoded. */
export function coverPicture(cover: CoverPhoto, language: string, maxWidth = 640): string {
  return pictureHtml(cover, { alt: localizedText(cover.alt, language), sizes: `(max-width: ${maxWidth}px) 100vw, ${maxWidth}px` });
}
