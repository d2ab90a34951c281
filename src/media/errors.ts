/** The errors of uploads (POST /v1/media); codes and messages are declared in src/errors/registry.ts. */
import type { ApiError } from '../errors/api-error.js';
import { apiError } from '../errors/registry.js';

export const notAnImage = (): ApiError => apiError('SK760');

export const imageTooLarge = (limit: number): ApiError => apiError('SK761', { params: { limit } });

export const tooManyPixels = (pixels: number, limit: number): ApiError => apiError('SK762', { params: { pixels, limit } });

export const malformedUpload = (message: string): ApiError => apiError('SK767', { params: { message } });
