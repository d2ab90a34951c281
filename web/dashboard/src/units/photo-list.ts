/**
 * The edits of a unit's photo list (`products.images`), kept pure so the section only renders: the list's order is
 * the order guests see, and the cover is always first (docs/media.md: "cover marks the photo shown first").
 */
import type { ProductImage } from '../api/json-columns';

export function movePhoto(images: ProductImage[], index: number, by: -1 | 1): ProductImage[] {
  const target = index + by;
  if (target < 0 || target >= images.length) return images;
  const moved = [...images];
  [moved[index], moved[target]] = [moved[target]!, moved[index]!];
  // The photo now in front is the cover.
  return withCoverFirst(moved);
}

export function setCover(images: ProductImage[], index: number): ProductImage[] {
  const chosen = images[index];
  if (!chosen) return images;
  return withCoverFirst([chosen, ...images.filter((_, at) => at !== index)]);
}

export function removePhoto(images: ProductImage[], index: number): ProductImage[] {
  return withCoverFirst(images.filter((_, at) => at !== index));
}

export function addPhoto(images: ProductImage[], mediaId: string): ProductImage[] {
  return withCoverFirst([...images, { media_id: mediaId, alt: {} }]);
}

/** The first photo is the cover, marked so that every client reads it the same way. */
function withCoverFirst(images: ProductImage[]): ProductImage[] {
  return images.map((image, at) => (at === 0 ? { ...image, cover: true } : withoutCover(image)));
}

function withoutCover({ cover: _cover, ...image }: ProductImage): ProductImage {
  return image;
}
