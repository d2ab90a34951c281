/** The automation operations in the OpenAPI document (src/openapi/document.ts adds them to its paths and schemas). */
type Json = Record<string, unknown>;

const ref = (kind: 'schemas' | 'responses', name: string): Json => ({ $ref: `#/components/${kind}/${name}` });
const uuid = { type: 'string', format: 'uuid' };

export const automationSchemas: Record<string, Json> = {
  TemplatePreviewRequest: {
    type: 'object',
    description: 'A booking and exactly one template: an e-mail template or a message template.',
    properties: { booking_id: uuid, email_template_id: uuid, message_template_id: uuid },
    required: ['booking_id'],
    additionalProperties: false,
  },
  TemplatePreview: {
    type: 'object',
    properties: {
      to: { type: ['string', 'null'], description: "The guest's e-mail address (null: the booking has none, nothing would be sent)." },
      from: { type: 'string' },
      reply_to: { type: ['string', 'null'], description: "The unit's reply-to address, if it has one." },
      language: { type: 'string', description: 'The language the texts were taken in.' },
      subject: { type: 'string' },
      body: { type: 'string', description: 'Plain text, with the booking details and link blocks the template asks for.' },
      attachments: {
        type: 'array',
        items: {
          type: 'object',
          properties: { filename: { type: 'string' }, content_type: { type: 'string' }, size: { type: 'integer', description: 'Bytes.' } },
          required: ['filename', 'content_type', 'size'],
        },
      },
    },
    required: ['to', 'from', 'reply_to', 'language', 'subject', 'body', 'attachments'],
  },
};

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
