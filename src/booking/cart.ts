/**
 * POST /v1/cart-validate and /v1/cart-checkout: several stays with the cart's coupon codes applied to each.
 * Validation reports every item; checkout books every item in one transaction, or none (the first failing item
 * aborts the transaction and is named in the error). Items of one product that overlap each other fail like any
 * overlap: the second sees the first's calendar event in the same transaction.
 */
import type { Queryable } from '../db/types.js';
import { ApiError } from '../errors/api-error.js';
import { book, type BookOptions } from './book.js';
import { cartItemFailed, invalidInput } from './errors.js';
import { toCouponCodes, toOptions, toStayInput, type BookingInput } from './input.js';
import { StayRejected } from './prepare.js';
import type { BookingOptionsBody, CartItemBody } from './request-schemas.js';
import type { BookResult, CartValidation } from './answer-schemas.js';
import { settleTermsAcceptance } from './terms.js';

export interface CartItem {
  id: string;
  input: BookingInput;
}

/**
 * The items of a validated cart, each with the cart's coupon codes and the body's booking options. /cart-validate
 * sends the cart as the body itself, /cart-checkout under `cart`. An item's id must be unique in the cart.
 */
export function toCartItems(cart: { items: CartItemBody[]; coupon_codes?: string[] | null }, options: BookingOptionsBody, prefix: string): CartItem[] {
  const couponCodes = toCouponCodes(cart.coupon_codes);
  const shared = toOptions(options);
  const seen = new Set<string>();
  return cart.items.map((item, index) => {
    const id = String(item.id);
    if (seen.has(id)) throw invalidInput(`${prefix}items[${index}].id "${id}" is not unique`);
    seen.add(id);
    return { id, input: { ...toStayInput(item, `${prefix}items[${index}].`), couponCodes, ...shared } };
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
