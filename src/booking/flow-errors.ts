/** Any error of the booking flow → the ApiError a client sees (a stay's rule violations, the write path's conflicts). */
import { ApiError } from '../errors/api-error.js';
import { fromDatabaseError } from '../errors/database-error.js';
import { fromBookingWriteError } from './errors.js';
import { StayRejected } from './prepare.js';

export function toBookingApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof StayRejected) return error.first;
  return fromBookingWriteError(error) ?? fromDatabaseError(error);
}

/** `work`, its errors as the client sees them. */
export async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw toBookingApiError(error);
  }
}
