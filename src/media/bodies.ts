/**
 * `POST /v1/media` written once (src/routing/route-schema.ts): scope, documentation, the bodies it reads as bytes and
 * its answers, from which routes.ts registers it and the OpenAPI document describes it, beside the resource API's
 * GET and DELETE of the same path. The answer is the media row (`#/components/schemas/media`).
 */
import Type from 'typebox';
import { apiError } from '../errors/registry.js';
import { defineRoute } from '../routing/route-schema.js';
import { documentRef } from '../routing/schema-component.js';
import { malformedUpload } from './errors.js';
import { MEDIA_TYPES, VARIANTS_DESCRIPTION } from './formats.js';

const ErrorBody = documentRef('Error');
const example = (code: Parameters<typeof apiError>[0], params?: Record<string, string | number>) => apiError(code, { params }).toBody();
const image = (mediaType: string) => Type.Unsafe<Uint8Array>({ type: 'string', contentMediaType: mediaType, description: 'The image file.' });

export const mediaUploadRoute = defineRoute({
  method: 'POST', url: '/media', scope: { resource: 'media', access: 'write' },
  operationId: 'media_upload', summary: 'Upload an image', tags: ['media'],
  description: 'Scope `media:write`. The image as the body (`Content-Type: image/…`; the bytes decide the format) or as '
    + 'the one file of a `multipart/form-data` form. Accepted: JPEG, PNG, WebP, AVIF, HEIC. Stored as resized variants '
    + `(${VARIANTS_DESCRIPTION}), upright and without metadata (no EXIF `
    + 'location). Put the answer\'s `id` in a unit\'s `images` to show it (docs/media.md).',
  // The bytes decide the format, not the Content-Type; a form's file is measured as it streams (upload-body.ts).
  rawBody: {
    ...Object.fromEntries(MEDIA_TYPES.map((type) => [type, image(type)])),
    'multipart/form-data': Type.Object({ file: image('application/octet-stream') }, { required: ['file'] }),
  },
  responses: {
    201: { description: 'Stored: the media row.', schema: documentRef('media') },
    400: { description: 'No image in the request, several, or another form field.', schema: ErrorBody, examples: { several: malformedUpload('Send one image per request').toBody() } },
    413: { description: 'The upload is larger than STAYKIT_MEDIA_MAX_BYTES.', schema: ErrorBody, examples: { size: example('SK761', { limit: 26_214_400 }) } },
    415: { description: 'The bytes are not an image of an accepted format.', schema: ErrorBody, examples: { text: example('SK760') } },
    422: {
      description: 'Too many pixels (a decompression bomb), or the organization keeps as many images as it may.', schema: ErrorBody,
      examples: {
        pixels: example('SK762', { pixels: 144_000_000, limit: 100_000_000 }),
        limit: example('SK763', { message: 'The organization has 5000 images, the most it may keep' }),
      },
    },
  },
  errors: ['Unauthorized', 'Forbidden'],
  invalid: (message) => malformedUpload(message),
});
