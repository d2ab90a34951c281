/**
 * The automation operations in the OpenAPI document (src/openapi/document.ts adds them to its paths and schemas); their
 * bodies are the schemas the route uses (bodies.ts).
 */
import { TemplatePreview, TemplatePreviewRequest } from './bodies.js';

type Json = Record<string, unknown>;

const ref = (kind: 'schemas' | 'responses', name: string): Json => ({ $ref: `#/components/${kind}/${name}` });

export const automationSchemas: Record<string, object> = { TemplatePreviewRequest, TemplatePreview };

export const automationPaths: Record<string, Json> = {
  '/template-preview': {
    post: {
      tags: ['email_templates'],
      operationId: 'template_preview',
      summary: 'Render a template for a booking without sending it',
      description: 'Exactly what the automation would send for this booking now (docs/automations.md). Nothing is stored or sent. '
        + 'Scopes: `bookings:read` and `email_templates:read` (or `message_templates:read`).',
      requestBody: { required: true, content: { 'application/json': { schema: ref('schemas', 'TemplatePreviewRequest') } } },
      responses: {
        200: { description: 'The rendered message.', content: { 'application/json': { schema: ref('schemas', 'TemplatePreview') } } },
        400: ref('responses', 'BadRequest'),
        401: ref('responses', 'Unauthorized'),
        403: ref('responses', 'Forbidden'),
        404: ref('responses', 'NotFound'),
      },
    },
  },
};
