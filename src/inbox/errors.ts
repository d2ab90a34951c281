/** The inbox's refusals (the provider webhook's; the SMTP listener answers in SMTP). */
import type { ApiError } from '../errors/api-error.js';
import { apiError } from '../errors/registry.js';

export const inboundWebhookOff = (): ApiError => apiError('SK690');
export const inboundWebhookUnauthorized = (): ApiError => apiError('SK691');
export const inboundNotForStaykit = (): ApiError => apiError('SK692');
export const inboundBodyInvalid = (message: string): ApiError => apiError('SK693', { params: { message } });
