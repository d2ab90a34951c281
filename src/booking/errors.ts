/**
 * The booking flow's error constructors (codes SK6xx, declared in src/errors/registry.ts). Every error is an ApiError
 * with PostgREST's body `{code, message, details, hint}`. Rule violations carry every reason at once in `details` (one per line), so a
 * client can show them all; the first one is also in `message`.
 */
import type { ApiError } from '../errors/api-error.js';
import { apiError } from '../errors/registry.js';

/** 400 SK601: the body or a query parameter is malformed (missing field, wrong type, bad date, …). */
export function invalidInput(message: string, details: string | null = null): ApiError {
  return apiError('SK601', { params: { message }, details });
}

/** 404 SK602: the product does not exist in this organization (or is deleted). */
export function productNotFound(productId: string): ApiError {
  return apiError('SK602', { params: { product: `Product ${productId}` } });
}

/** 400 SK603: an occupancy key is not a capacity group of this organization. */
export function unknownCapacityGroup(groupId: string): ApiError {
  return apiError('SK603', { params: { group: groupId } });
}

/** 400 SK604: a form value names a service that is not offered for the product. */
export function unknownService(serviceId: string): ApiError {
  return apiError('SK604', { params: { service: serviceId } });
}

/** 404 SK605: no active coupon has this code. */
export function unknownCoupon(code: string): ApiError {
  return apiError('SK605', { params: { coupon: `Coupon ${code}` } });
}

/** 409 SK610: the dates (with cooldown) overlap a booking or blocked period. */
export function notAvailable(details: string | null = null): ApiError {
  return apiError('SK610', { details });
}

/** 422 SK611: the stay breaks a rule of the product's configuration. */
export function stayRulesViolated(reasons: string[]): ApiError {
  return apiError('SK611', { params: { message: reasons[0] ?? 'The stay is not allowed' }, details: reasons.join('\n') });
}

/** 422 SK612: the occupancy breaks the product's capacities. */
export function occupancyInvalid(reasons: string[]): ApiError {
  return apiError('SK612', { params: { message: reasons[0] ?? 'Invalid occupancy' }, details: reasons.join('\n') });
}

/** 422 SK613: no rate applies to a night of the stay (length or number of guests). */
export function noRate(date: string): ApiError {
  return apiError('SK613', { params: { date } });
}

/** 422 SK614: the coupon exists but does not apply to this stay. */
export function couponNotApplicable(code: string, reason: string): ApiError {
  return apiError('SK614', { params: { coupon: code, reason } });
}

/** 422 SK615: the coupon's quota is used up. */
export function couponExhausted(code: string): ApiError {
  return apiError('SK615', { params: { coupon: `Coupon ${code}` } });
}

/** 422 SK616: a non-stackable coupon combined with another. */
export function couponNotStackable(code: string): ApiError {
  return apiError('SK616', { params: { coupon: code } });
}

/** 422 SK617: a form value is missing or not valid for its service. */
export function formValueInvalid(reasons: string[]): ApiError {
  return apiError('SK617', { params: { message: reasons[0] ?? 'Invalid form values' }, details: reasons.join('\n') });
}

/** 422 SK618: the requested currency differs from the product's and no exchange rate is configured. */
export function currencyNotSupported(requested: string, productCurrency: string): ApiError {
  return apiError('SK618', {
    params: { currency: requested },
    hint: `Book in ${productCurrency}`,
  });
}

/** 409 SK620: a request with this Idempotency-Key is still being processed. */
export function idempotencyInProgress(): ApiError {
  return apiError('SK620');
}

/** 422 SK621: the Idempotency-Key was used for a different request. */
export function idempotencyMismatch(): ApiError {
  return apiError('SK621');
}

/** 400 SK622: the Idempotency-Key header is malformed. */
export function idempotencyKeyInvalid(): ApiError {
  return apiError('SK622');
}

/** 422/409 SK630: a cart item failed; nothing was booked. `details` holds the item's own error. */
export function cartItemFailed(itemId: string, cause: ApiError): ApiError {
  return apiError('SK630', {
    params: { item: itemId, message: cause.message },
    details: JSON.stringify({ id: itemId, code: cause.code, message: cause.message, details: cause.details }),
    status: cause.status,
  });
}

/** 404 SK642: no booking with this id in the organization. */
export function bookingNotFound(bookingId: string): ApiError {
  return apiError('SK642', { params: { booking: bookingId } });
}

/** 409 SK643: the booking's state does not allow the change (cancelled, imported from a channel, …). */
export function bookingNotChangeable(message: string): ApiError {
  return apiError('SK643', { params: { message } });
}

/**
 * The booking write path's conflicts → ApiErrors: the overlap constraint and a lost race. Its refusals (an unknown
 * product, coupon, site, widget or booking; a used-up coupon; a cancelled booking) are raised by its functions with
 * their registry codes and client messages (migration 0230) and answered by fromDatabaseError like any such code.
 */
export function fromBookingWriteError(error: unknown): ApiError | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, constraint } = error as { code?: unknown; constraint?: unknown };
  if (code === '23P01') return notAvailable(typeof constraint === 'string' ? `constraint ${constraint}` : null);
  // Two carts taking the same dates in opposite order: PostgreSQL aborts one of them; it lost the race.
  if (code === '40P01' || code === '40001') return notAvailable('a concurrent booking took some of these dates; retry to see what is left');
  return undefined;
}

/** 422 SK648: a booking by the public (a publishable key) names no way to reach its guest. */
export function guestContactMissing(missing: string[]): ApiError {
  return apiError('SK648', { details: `missing: ${missing.join(' and ')}` });
}
