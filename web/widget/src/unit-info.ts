/**
 * What the widget says about the unit above its calendar: the photos (gallery.ts), the description in the visitor's
 * language, and the key facts — how many guests it takes, its attributes as the organization set them (e.g.
 * "Bedrooms: 3"), the latest arrival time — each only when the unit has it.
 */
import { esc } from './format.js';
import { galleryHtml, wireGallery } from './gallery.js';
import { localize, type Translate } from './i18n.js';
import type { Catalogue, Product } from './types.js';

/**
 * The most guests the unit takes: the max of a group that adds others up (e.g. "Guests" = adults + children) when it
 * has one, else the maxima of its groups added up; undefined when some group has no maximum.
 */
export function maxGuests(product: Product, catalogue: Pick<Catalogue, 'capacity_groups'>): number | undefined {
  const limits = (groupIds: string[]) => product.capacities.filter((c) => groupIds.includes(c.capacity_group_id));
  const sums = limits(catalogue.capacity_groups.filter((g) => g.element_ids.length > 0).map((g) => g.id)).map((c) => c.max).filter((max): max is number => max !== null);
  if (sums.length > 0) return Math.min(...sums);
  const own = limits(catalogue.capacity_groups.filter((g) => g.element_ids.length === 0).map((g) => g.id));
  if (own.length === 0 || own.some((c) => c.max === null)) return undefined;
  return own.reduce((total, c) => total + c.max!, 0);
}

/** "22:00" or "10:00 PM", as the language writes times. */
function time(value: string, language: string): string {
  return new Intl.DateTimeFormat(language, { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' }).format(new Date(`1970-01-01T${value}Z`));
}

export function keyFacts(product: Product, catalogue: Pick<Catalogue, 'capacity_groups' | 'attributes'>, language: string, t: Translate): string[] {
  const facts: string[] = [];
  const guests = maxGuests(product, catalogue);
  if (guests !== undefined && guests > 0) facts.push(t(guests === 1 ? 'oneGuest' : 'upToGuests', { n: guests }));
  for (const attribute of catalogue.attributes) {
    const options = attribute.options.filter((option) => product.attribute_option_ids.includes(option.id));
    if (options.length > 0) facts.push(`${localize(attribute.name, language)}: ${options.map((option) => localize(option.name, language)).join(', ')}`);
  }
  if (product.latest_arrival_time) facts.push(t('checkInUntil', { time: time(product.latest_arrival_time, language) }));
  return facts;
}

/** Renders the unit's photos, description and facts into `container` and wires the gallery. */
export function renderUnitInfo(container: HTMLElement, product: Product, catalogue: Catalogue, language: string, t: Translate): void {
  const name = localize(product.name, language);
  const description = localize(product.description, language).trim();
  const facts = keyFacts(product, catalogue, language, t);
  container.innerHTML = galleryHtml(product.images, name, language, t)
    + (description ? `<p class="description">${esc(description)}</p>` : '')
    + (facts.length > 0 ? `<ul class="facts" aria-label="${esc(t('keyFacts'))}">${facts.map((fact) => `<li>${esc(fact)}</li>`).join('')}</ul>` : '');
  wireGallery(container.querySelector<HTMLElement>('.gallery'), t);
}
