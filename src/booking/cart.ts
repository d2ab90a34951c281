/**
 * POST /v1/cart-validate and /v1/cart-checkout: several stays with the cart's coupon codes applied to each.
 * Validation reports every item; checkout books every item in one transaction, or none (the first failing item
 * aborts the transaction and is named in the error). Items of one product that overlap each other fail like any
 * overlap: the second sees the first's calendar event in the same transaction.
 */
import type { Queryable } from '../db/types.js';
import { ApiError } from '../errors/api-error.js';
import { book, type BookOptions, type BookResult } from './book.js';
import { cartItemFailed, invalidInput } from './errors.js';
import {
  OPTION_FIELDS, parseCouponCodes, parseOptions, parseStay, rejectUnknownFields, requireObject, STAY_FIELDS,
  type BookingInput,
} from './input.js';
import { StayRejected } from './prepare.js';
import { settleTermsAcceptance } from './terms.js';

export interface CartItem {
  id: string;
  input: BookingInput;
}

export interface CartValidation {
  id: string;
  valid: boolean;
  availabilityMatch: boolean;
  occupancyMatch: boolean;
  errors?: { code: string; message: string; details: string | null }[];
}

export const MAX_CART_ITEMS = 50;

/**
 * The items of a cart with the booking options of the body `options`. /cart-validate sends the cart as the body
 * itself (`value` is `options`: items, coupon codes and options side by side); /cart-checkout nests it under
 * `cart`. Either way an unknown field is a 400 naming it.
 */
export function parseCart(value: unknown, options: Record<string, unknown>): CartItem[] {
  const cart = requireObject(value, 'cart');
  if (value === options) {
    rejectUnknownFields(cart, ['items', 'coupon_codes', ...OPTION_FIELDS]);
  } else {
    rejectUnknownFields(options, ['cart', ...OPTION_FIELDS]);
    rejectUnknownFields(cart, ['items', 'coupon_codes'], 'cart.');
  }
  if (!Array.isArray(cart.items) || cart.items.length === 0) throw invalidInput('cart.items must be a non-empty array');
  if (cart.items.length > MAX_CART_ITEMS) throw invalidInput(`at most ${MAX_CART_ITEMS} items per cart`);
  const couponCodes = parseCouponCodes(cart.coupon_codes, 'cart.coupon_codes');
  const shared = parseOptions(options);
  const seen = new Set<string>();
  return cart.items.map((raw, index) => {
    const item = requireObject(raw, `cart.items[${index}]`);
    rejectUnknownFields(item, ['id', ...STAY_FIELDS], `cart.items[${index}].`);
    if (typeof item.id !== 'string' && typeof item.id !== 'number') {
      throw invalidInput(`cart.items[${index}].id must be a string or number`);
    }
    const id = String(item.id);
    if (seen.has(id)) throw invalidInput(`cart.items[${index}].id "${id}" is not unique`);
    seen.add(id);
    return { id, input: { ...parseStay(item, `cart.items[${index}].`), couponCodes, ...shared } };
  });
}

function errorEntry(error: ApiError) {
  return { code: error.code, message: error.message, details: error.details };
}

/** Validates every item as /book would (in a transaction the caller rolls back, so earlier items count). */
export async function validateCart(
  tx: Queryable, items: CartItem[], now: Date, toApiError: (error: unknown) => ApiError,
): Promise<CartValidation[]> {
  const results: CartValidation[] = [];
  for (const item of items) {
    try {
      // Book inside a savepoint: later items then see this one's dates, as checkout would.
      await tx.query('SAVEPOINT cart_item');
      try {
        await book(tx, item.input, now);
        await tx.query('RELEASE SAVEPOINT cart_item');
      } catch (error) {
        await tx.query('ROLLBACK TO SAVEPOINT cart_item');
        throw error;
      }
      results.push({ id: item.id, valid: true, availabilityMatch: true, occupancyMatch: true });
    } catch (error) {
      if (error instanceof StayRejected) {
        results.push({
          id: item.id, valid: false,
          availabilityMatch: error.problems.availability.length === 0,
          occupancyMatch: error.problems.occupancy.length === 0,
          errors: [...error.problems.availability, ...error.problems.occupancy].map(errorEntry),
        });
      } else {
        const apiError = toApiError(error);
        if (apiError.status >= 500) throw error;
        results.push({
          id: item.id, valid: false, availabilityMatch: apiError.code !== 'SK610', occupancyMatch: true,
          errors: [errorEntry(apiError)],
        });
      }
    }
  }
  return results;
}

export async function checkoutCart(
  tx: Queryable, items: CartItem[], now: Date, toApiError: (error: unknown) => ApiError, options: BookOptions = {},
): Promise<{ items: ({ id: string } & Pick<BookResult, 'reference' | 'booking_id'>)[]; payment_url: null }> {
  const booked: ({ id: string } & Pick<BookResult, 'reference' | 'booking_id'>)[] = [];
  // The cart's options are every item's: the terms are accepted (or refused, 422 SK649) once, for the whole cart.
  await settleTermsAcceptance(tx, items[0]?.input.acceptTerms ?? false, options.requireTermsAcceptance ?? false);
  const itemOptions: BookOptions = { ...options, requireTermsAcceptance: false };
  for (const item of items) {
    try {
      const result = await book(tx, item.input, now, itemOptions);
      booked.push({ id: item.id, reference: result.reference, booking_id: result.booking_id });
    } catch (error) {
      throw cartItemFailed(item.id, toApiError(error));
    }
  }
  return { items: booked, payment_url: null };
}
