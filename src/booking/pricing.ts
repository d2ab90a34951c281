/**
 * The one pricing function shared by /quote, /book, /cart-* and /search: rent per night, adjustments, services and
 * their deposits, coupons and taxes (docs/design.md#pricing), in integer minor units. Pure: everything it needs is
 * loaded first.
 */
import { daysBetween } from '../common/dates.js';
import { EMAIL } from '../common/patterns.js';
import {
  couponExhausted, couponNotApplicable, couponNotStackable, formValueInvalid, noRate, unknownCoupon, unknownService,
} from './errors.js';
import type { Adjustment, Coupon, MultiLanguage, Night, Pricing, Product, Service, Tax } from './model.js';
import { localize } from './model.js';
import type { Stay } from './rules.js';
import type { LineItem, PricedStay, QuoteCoupon } from './answer-schemas.js';

/** The price as the pricing function makes it: the shape /quote documents (answer-schemas.ts). */
export type Quote = PricedStay;

export interface BookingDetail {
  service_id: string;
  option_id: string | null;
  name: MultiLanguage;
  description: MultiLanguage;
  value: string | null;
}

export interface PricingInput {
  product: Product;
  stay: Stay;
  /** [start, endExclusive), each with its configuration and rate (all present: rules are checked first). */
  nights: Night[];
  guests: number;
  today: string;
  language: string;
  services: Service[];
  formValues: Record<string, unknown>;
  taxes: Tax[];
  /** Coupons found for the requested codes (any order); a code without a coupon is an error. */
  coupons: Coupon[];
  couponCodes: string[];
}

export interface Priced {
  quote: Quote;
  /** Line items with their multi-language names, as stored. */
  storedNames: MultiLanguage[];
  details: BookingDetail[];
  couponUses: { coupon_id: string; amount: number }[];
}

/** Round half away from zero to an integer (float noise below 1e-6 removed first); never -0. */
export function roundHalfUp(value: number): number {
  const cleaned = Math.round(value * 1e6) / 1e6;
  return Math.sign(cleaned) * Math.floor(Math.abs(cleaned) + 0.5) + 0;
}

export function percentOf(amount: number, percentage: number): number {
  return roundHalfUp((amount * percentage) / 100);
}

/** The best entry of each adjustment list (docs/design.md#pricing), or undefined. */
export function bestAdjustments(
  arrival: { long_rent_adjustments: Adjustment[]; early_bird_adjustments: Adjustment[]; last_minute_adjustments: Adjustment[] },
  length: number,
  advance: number,
): { kind: 'long_rent' | 'early_bird' | 'last_minute'; entry: Adjustment }[] {
  const pick = (list: Adjustment[], fits: (a: Adjustment) => boolean, better: (a: Adjustment, b: Adjustment) => boolean) =>
    list.filter(fits).reduce<Adjustment | undefined>((best, entry) => (!best || better(entry, best) ? entry : best), undefined);
  const long = pick(arrival.long_rent_adjustments, (a) => (a.min_duration ?? 0) <= length, (a, b) => (a.min_duration ?? 0) > (b.min_duration ?? 0));
  const early = pick(arrival.early_bird_adjustments, (a) => (a.min_advance ?? 0) <= advance, (a, b) => (a.min_advance ?? 0) > (b.min_advance ?? 0));
  const last = pick(arrival.last_minute_adjustments, (a) => advance <= (a.max_advance ?? 0), (a, b) => (a.max_advance ?? 0) < (b.max_advance ?? 0));
  const result: { kind: 'long_rent' | 'early_bird' | 'last_minute'; entry: Adjustment }[] = [];
  if (long) result.push({ kind: 'long_rent', entry: long });
  if (early) result.push({ kind: 'early_bird', entry: early });
  if (last) result.push({ kind: 'last_minute', entry: last });
  return result;
}

const ADJUSTMENT_NAMES = { long_rent: 'Long stay', early_bird: 'Early booking', last_minute: 'Last minute' } as const;

interface Draft extends LineItem {
  names: MultiLanguage;
  /** Which taxes apply: rent (rent, adjustments), services, or all (total-wide coupons). */
  category: 'rent' | 'services' | 'all';
}

function serviceQuantity(service: Service, value: unknown, reasons: string[], name: string): number {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isInteger(number) || number < 0) {
    reasons.push(`${name}: a whole number of 0 or more is required`);
    return 0;
  }
  if (service.max_quantity !== null && number > service.max_quantity) {
    reasons.push(`${name}: at most ${service.max_quantity}`);
    return 0;
  }
  return number;
}

function basis(pricing: Pricing, length: number, guests: number): number {
  switch (pricing.per) {
    case 'stay':
    case 'unit':
      return 1;
    case 'night':
      return length;
    case 'guest':
      return guests;
    case 'guest_night':
      return guests * length;
  }
}

function priceServices(input: PricingInput, drafts: Draft[], details: BookingDetail[]): void {
  const { services, formValues, language, stay, guests } = input;
  const byId = new Map(services.map((service) => [service.id, service]));
  for (const id of Object.keys(formValues)) if (!byId.has(id)) throw unknownService(id);
  const reasons: string[] = [];
  for (const service of services) {
    const name = localize(service.name, language) || service.id;
    const raw = formValues[service.id];
    const given = raw !== undefined && raw !== null && raw !== '';
    let pricing = service.pricing;
    let units = 0;
    let optionId: string | null = null;
    let stored: string | null = given ? String(raw) : null;
    switch (service.type) {
      case 'fee':
        units = 1;
        break;
      case 'checkbox': {
        const checked = raw === true || raw === 'true';
        if (given && !checked && raw !== false && raw !== 'false') reasons.push(`${name}: true or false expected`);
        if (service.required && !checked) reasons.push(`${name} must be checked`);
        units = checked ? 1 : 0;
        break;
      }
      case 'number':
      case 'quantity':
        if (given) units = serviceQuantity(service, raw, reasons, name);
        if (service.required && (!given || units === 0)) reasons.push(`${name} is required`);
        break;
      case 'select': {
        if (given) {
          const option = service.options.find((candidate) => candidate.id === String(raw).toLowerCase());
          if (!option) reasons.push(`${name}: unknown option ${String(raw)}`);
          else {
            optionId = option.id;
            stored = localize(option.name, language);
            pricing = option.pricing ?? service.pricing;
            units = 1;
          }
        } else if (service.required) reasons.push(`${name} is required`);
        break;
      }
      default: {
        if (given && typeof raw !== 'string') reasons.push(`${name}: text expected`);
        if (service.type === 'email' && given && !EMAIL.test(String(raw))) reasons.push(`${name}: not an e-mail address`);
        if (service.required && !given) reasons.push(`${name} is required`);
        units = given ? 1 : 0;
      }
    }
    if (service.type !== 'fee' && given) {
      details.push({ service_id: service.id, option_id: optionId, name: service.name, description: service.description, value: stored });
    }
    if (!pricing || units === 0) continue;
    const quantity = basis(pricing, stay.length, guests) * units;
    if (quantity === 0) continue;
    drafts.push({
      item_type: 'service', fee_type: pricing.deposit === true ? 'deposit' : 'fee', name, names: service.name,
      quantity, amount: pricing.amount * quantity, service_id: service.id, taxes: [], category: 'services',
    });
    if (typeof pricing.deposit === 'number' && pricing.deposit > 0) {
      drafts.push({
        item_type: 'service', fee_type: 'deposit', name: `${name} (deposit)`,
        names: Object.fromEntries(Object.entries(service.name).map(([lang, text]) => [lang, `${text} (deposit)`])),
        quantity: units, amount: pricing.deposit * units, service_id: service.id, taxes: [], category: 'services',
      });
    }
  }
  if (reasons.length > 0) throw formValueInvalid(reasons);
}

function couponProblem(coupon: Coupon, input: PricingInput): string | null {
  const { definition } = coupon;
  if (definition.min_duration !== undefined && input.stay.length < definition.min_duration) {
    return `the stay must be at least ${definition.min_duration} ${input.product.rent_period === 'nightly' ? 'nights' : 'days'}`;
  }
  if (definition.booking_from && input.today < definition.booking_from) return `it can be used from ${definition.booking_from}`;
  if (definition.booking_until && input.today > definition.booking_until) return `it could be used until ${definition.booking_until}`;
  if (definition.stay_from && input.stay.start < definition.stay_from) return `arrival must be on or after ${definition.stay_from}`;
  if (definition.stay_until && input.stay.start > definition.stay_until) return `arrival must be on or before ${definition.stay_until}`;
  if (coupon.scope === 'product' && !coupon.product_ids.includes(input.product.id)) return 'not valid for this product';
  return null;
}

function applyCoupons(input: PricingInput, drafts: Draft[]): QuoteCoupon[] {
  const byCode = new Map(input.coupons.map((coupon) => [coupon.code.toLowerCase(), coupon]));
  const coupons = input.couponCodes.map((code) => {
    const coupon = byCode.get(code.toLowerCase());
    if (!coupon) throw unknownCoupon(code);
    return coupon;
  });
  if (coupons.length > 1) {
    const single = coupons.find((coupon) => !coupon.stackable);
    if (single) throw couponNotStackable(single.code);
  }
  const fees = drafts.filter((draft) => draft.fee_type === 'fee');
  const sum = (items: Draft[]) => items.reduce((total, item) => total + item.amount, 0);
  let remaining = sum(fees);
  const applied: QuoteCoupon[] = [];
  for (const coupon of coupons) {
    if (coupon.quota !== null && coupon.uses >= coupon.quota) throw couponExhausted(coupon.code);
    const problem = couponProblem(coupon, input);
    if (problem) throw couponNotApplicable(coupon.code, problem);
    let base: number;
    let category: Draft['category'];
    if (coupon.scope === 'rent') {
      base = sum(fees.filter((item) => item.category === 'rent'));
      category = 'rent';
    } else if (coupon.scope === 'service') {
      base = sum(fees.filter((item) => item.service_id !== undefined && coupon.service_ids.includes(item.service_id)));
      category = 'services';
      if (base === 0) throw couponNotApplicable(coupon.code, 'none of its services is part of this booking');
    } else {
      base = sum(fees);
      category = 'all';
    }
    const raw = coupon.definition.type === 'percentage' ? percentOf(base, coupon.definition.value) : coupon.definition.value;
    const discount = Math.max(0, Math.min(raw, base, remaining));
    remaining -= discount;
    applied.push({ id: coupon.id, code: coupon.code, scope: coupon.scope, amount: discount });
    if (discount > 0) {
      drafts.push({
        item_type: 'coupon', fee_type: 'fee', name: `Coupon ${coupon.code}`, names: { default: `Coupon ${coupon.code}` },
        quantity: 1, amount: -discount, taxes: [], category,
      });
    }
  }
  return applied;
}

function applyTaxes(input: PricingInput, drafts: Draft[]): void {
  const exclusive = new Map<string, { tax: Tax; amount: number }>();
  for (const draft of drafts) {
    if (draft.fee_type !== 'fee') continue;
    for (const tax of input.taxes) {
      if (tax.applies_to !== 'all' && tax.applies_to !== draft.category) continue;
      const amount = tax.inclusive
        ? roundHalfUp((draft.amount * tax.percentage) / (100 + tax.percentage))
        : percentOf(draft.amount, tax.percentage);
      draft.taxes.push({ tax_id: tax.id, name: tax.name, percentage: tax.percentage, inclusive: tax.inclusive, amount });
      if (!tax.inclusive) {
        const entry = exclusive.get(tax.id) ?? { tax, amount: 0 };
        entry.amount += amount;
        exclusive.set(tax.id, entry);
      }
    }
  }
  for (const { tax, amount } of exclusive.values()) {
    if (amount === 0) continue;
    drafts.push({
      item_type: 'tax', fee_type: 'fee', name: tax.name, names: { default: tax.name }, quantity: 1, amount, taxes: [],
      category: 'all',
    });
  }
}

/** Prices a stay whose rules were checked. Throws SK613 (no rate), SK604/SK617 (form values), SK605/SK614–616. */
export function priceStay(input: PricingInput): Priced {
  const { product, stay, nights, today } = input;
  const drafts: Draft[] = [];
  // rent_pricing_definition = services: the rent is whatever the product's services charge; no rates apply.
  const ratesApply = product.rent_pricing_definition !== 'services';
  if (ratesApply) for (const night of nights) if (night.rate === null) throw noRate(night.date);
  const rent = ratesApply ? nights.reduce((total, night) => total + (night.rate ?? 0), 0) : 0;
  if (ratesApply) {
    drafts.push({ item_type: 'rent', fee_type: 'fee', name: 'Rent', names: { default: 'Rent' }, quantity: stay.length, amount: rent, taxes: [], category: 'rent' });
  }

  const arrival = nights[0]?.configuration;
  let running = rent;
  if (arrival && ratesApply) {
    for (const { kind, entry } of bestAdjustments(arrival, stay.length, daysBetween(today, stay.start))) {
      const amount = percentOf(running, entry.percentage);
      running += amount;
      if (amount === 0) continue;
      const name = `${ADJUSTMENT_NAMES[kind]} ${entry.percentage > 0 ? '+' : ''}${entry.percentage}%`;
      drafts.push({ item_type: 'adjustment', fee_type: 'fee', name, names: { default: name }, quantity: 1, amount, taxes: [], category: 'rent' });
    }
  }
  const details: BookingDetail[] = [];
  priceServices(input, drafts, details);
  const coupons = applyCoupons(input, drafts);
  applyTaxes(input, drafts);

  const total = drafts.filter((item) => item.fee_type === 'fee').reduce((sum, item) => sum + item.amount, 0);
  const deposit = drafts.filter((item) => item.fee_type === 'deposit').reduce((sum, item) => sum + item.amount, 0);
  const lineItems: LineItem[] = drafts.map(({ names: _names, category: _category, ...item }) => item);
  return {
    quote: {
      currency: product.currency,
      display_currency: product.currency,
      exchange_rate: 1,
      total,
      deposit,
      line_items: lineItems,
      coupons,
      nights: ratesApply ? nights.map((night) => ({ date: night.date, rate: night.rate ?? 0 })) : [],
      valid: true,
    },
    storedNames: drafts.map((item) => item.names),
    details,
    couponUses: coupons.map((coupon) => ({ coupon_id: coupon.id, amount: coupon.amount })),
  };
}
