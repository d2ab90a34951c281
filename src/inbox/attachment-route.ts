/** GET /v1/message-attachments/{id}: an inbound e-mail's kept file (attachment-routes.ts), written once as its definition. */
import Type from 'typebox';
import { queryParamError } from '../errors/catalogue.js';
import { defineRoute } from '../routing/route-schema.js';
import { FALLBACK_TYPE, SERVED_TYPES } from './attachment-types.js';

export const attachmentDownloadRoute = defineRoute({
  method: 'GET', url: '/message-attachments/:id', scope: { resource: 'messages', access: 'read' },
  operationId: 'message_attachment_download', summary: 'A file of a guest\'s e-mail', tags: ['messages'],
  description: 'The bytes of a `message_attachments` row (docs/automations.md#inbox), as a download: '
    + '`Content-Disposition: attachment` with the file\'s name, its media type when it is one of the safe list (PDF, '
    + 'pictures, plain text, office documents), else `application/octet-stream`, with `X-Content-Type-Options: nosniff` '
    + 'and a sandboxing Content-Security-Policy. Needs `messages:read`; an id of no attachment of the organization is a 404.',
  params: Type.Object({ id: Type.String({ format: 'uuid', expected: 'a message attachment id (UUID)' }) }),
  responses: {
    200: {
      description: 'The file: its own media type when on the safe list, else application/octet-stream.',
      mediaType: FALLBACK_TYPE, otherMediaTypes: [...SERVED_TYPES], schema: Type.String({ format: 'binary' }),
      headers: { 'Content-Disposition': { schema: { type: 'string' }, description: 'attachment; filename="…"; filename*=UTF-8\'\'…' } },
    },
  },
  errors: ['BadRequest', 'Unauthorized', 'Forbidden', 'NotFound'],
  invalid: (message, details) => queryParamError(message, details ?? ''),
});
