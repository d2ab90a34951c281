/** The money module's own refusals (the database raises the invariants' codes itself: migrations/0120, 0121). */
import type { ApiError } from '../errors/api-error.js';
import { apiError } from '../errors/registry.js';

export const stripeSignatureInvalid = (): ApiError => apiError('SK670');
export const onlinePaymentNotSetUp = (): ApiError => apiError('SK671');
export const stripeRefused = (reason: string): ApiError => apiError('SK672', { params: { reason } });
export const invoicePdfOnly = (id: string): ApiError => apiError('SK673', { params: { id } });
export const moneyBodyInvalid = (message: string): ApiError => apiError('SK675', { params: { message } });
export const noPaymentDue = (message: string): ApiError => apiError('SK676', { params: { message } });
