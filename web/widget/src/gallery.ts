/**
 * The unit's photos in the widget (docs/widget.md#photos): the cover first, then the others in the unit's order, in a
 * row of slides the visitor swipes (native scrolling with scroll snap: touch, trackpad and mouse wheel alike, no
 * script on the way), steps through with the arrow buttons, or, with the gallery focused, the arrow keys and
 * Home/End. Each photo is a <picture> of its resized copies (AVIF, WebP, JPEG) for the browser to pick a width
 * from; every photo after the first loads lazily. The position is announced ("Photo 2 of 3").
 */
import { pictureHtml } from '../../../src/media/picture.js';
import { esc } from './format.js';
import { localize, type Translate } from './i18n.js';
import type { CatalogueImage } from './types.js';

/** How wide a photo is shown: the whole width on a phone, else the widget's column (42rem less its padding). */
const SIZES = '(max-width: 672px) 100vw, 640px';

/** The cover first, then the rest in their order. */
export function galleryOrder(images: readonly CatalogueImage[]): CatalogueImage[] {
  return [...images].sort((a, b) => Number(b.cover) - Number(a.cover));
}

export function galleryHtml(images: readonly CatalogueImage[], unitName: string, language: string, t: Translate): string {
  const ordered = galleryOrder(images);
  if (ordered.length === 0) return '';
  const slides = ordered.map((image, index) => {
    const picture = pictureHtml(image, { alt: localize(image.alt, language), sizes: SIZES, lazy: index > 0 });
    return ordered.length === 1 ? `<div class="slide">${picture}</div>`
      : `<div class="slide" role="group" aria-roledescription="slide" aria-label="${esc(t('photoOf', { n: index + 1, total: ordered.length }))}">${picture}</div>`;
  }).join('');
  if (ordered.length === 1) return `<section class="gallery" aria-label="${esc(t('photosOf', { unit: unitName }))}"><div class="slides">${slides}</div></section>`;
  return `<section class="gallery" aria-roledescription="carousel" aria-label="${esc(t('photosOf', { unit: unitName }))}">`
    + `<div class="slides" tabindex="0" aria-label="${esc(t('photosHint'))}">${slides}</div>`
    + `<button type="button" class="photo-prev" aria-label="${esc(t('previousPhoto'))}">‹</button>`
    + `<button type="button" class="photo-next" aria-label="${esc(t('nextPhoto'))}">›</button>`
    + `<span class="photo-count" aria-hidden="true"></span><span class="sr-only" role="status" data-photo-status></span></section>`;
}

/** Buttons, keys and the position shown; the swiping itself is the browser's scrolling. */
export function wireGallery(section: HTMLElement | null, t: Translate): void {
  const slides = section?.querySelector<HTMLElement>('.slides');
  if (!section || !slides || slides.children.length < 2) return;
  const total = slides.children.length;
  const current = () => Math.round(slides.scrollLeft / Math.max(slides.clientWidth, 1));
  const reduced = matchMedia('(prefers-reduced-motion: reduce)').matches;
  const go = (index: number) => slides.scrollTo({ left: Math.max(0, Math.min(total - 1, index)) * slides.clientWidth, behavior: reduced ? 'auto' : 'smooth' });
  let shown = -1;
  const show = () => {
    const index = Math.max(0, Math.min(total - 1, current()));
    if (index === shown) return;
    shown = index;
    section.querySelector('.photo-count')!.textContent = `${index + 1} / ${total}`;
    section.querySelector('[data-photo-status]')!.textContent = t('photoOf', { n: index + 1, total });
    section.querySelector<HTMLButtonElement>('.photo-prev')!.disabled = index === 0;
    section.querySelector<HTMLButtonElement>('.photo-next')!.disabled = index === total - 1;
    for (const [at, slide] of [...slides.children].entries()) slide.toggleAttribute('inert', at !== index);
  };
  slides.addEventListener('scroll', () => requestAnimationFrame(show), { passive: true });
  section.querySelector('.photo-prev')!.addEventListener('click', () => go(current() - 1));
  section.querySelector('.photo-next')!.addEventListener('click', () => go(current() + 1));
  section.addEventListener('keydown', (event) => {
    const to = { ArrowLeft: current() - 1, ArrowRight: current() + 1, Home: 0, End: total - 1 }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    go(to);
  });
  show();
}
