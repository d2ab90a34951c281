/**
 * `POST /v1/media` in the OpenAPI document: src/openapi/document.ts adds this operation to the `/media` path item
 * the resource API's GET and DELETE come from. The answer is the media row (`#/components/schemas/media`).
 */
import type { ErrorBody } from '../errors/api-error.js';
import { apiError } from '../errors/registry.js';
import { malformedUpload } from './errors.js';
import { MEDIA_TYPES } from './formats.js';

type Json = Record<string, unknown>;

const error = (description: string, examples: Record<string, ErrorBody>): Json => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' }, examples: Object.fromEntries(Object.entries(examples).map(([name, value]) => [name, { value }])) } },
});
const body = (code: Parameters<typeof apiError>[0], params?: Record<string, string | number>) => apiError(code, { params }).toBody();
const image = { type: 'string', contentMediaType: 'application/octet-stream', description: 'The image file.' };

export const mediaUpload: Json = {
  post: {
    tags: ['media'], operationId: 'media_upload', summary: 'Upload an image',
    description: 'Scope `media:write`. The image as the body (`Content-Type: image/…`; the bytes decide the format) or as '
      + 'the one file of a `multipart/form-data` form. Accepted: JPEG, PNG, WebP, AVIF, HEIC. Stored as resized variants '
      + '(400, 800 and 1600 pixels wide, none wider than the upload; AVIF, WebP and JPEG), upright and without metadata (no EXIF '
      + 'location). Put the answer\'s `id` in a unit\'s `images` to show it (docs/media.md).',
    requestBody: {
      required: true,
      content: {
        ...Object.fromEntries(MEDIA_TYPES.map((type) => [type, { schema: { type: 'string', contentMediaType: type } }])),
        'multipart/form-data': { schema: { type: 'object', properties: { file: image }, required: ['file'] } },
      },
    },
    responses: {
      201: { description: 'Stored: the media row.', content: { 'application/json': { schema: { $ref: '#/components/schemas/media' } } } },
      400: error('No image in the request, several, or another form field.', { several: malformedUpload('Send one image per request').toBody() }),
      401: { $ref: '#/components/responses/Unauthorized' },
      403: { $ref: '#/components/responses/Forbidden' },
      413: error('The upload is larger than STAYKIT_MEDIA_MAX_BYTES.', { size: body('SK761', { limit: 26_214_400 }) }),
      415: error('The bytes are not an image of an accepted format.', { text: body('SK760') }),
      422: error('Too many pixels (a decompression bomb), or the organization keeps as many images as it may.', {
        pixels: body('SK762', { pixels: 144_000_000, limit: 100_000_000 }),
        limit: body('SK763', { message: 'The organization has 5000 images, the most it may keep' }),
      }),
    },
  },
};
