/**
 * The template preview written once (src/routing/route-schema.ts): method, url, scope, documentation and the TypeBox
 * schemas of its body and answer, from which routes.ts registers it (validated, typed) and openapi.ts documents it.
 */
import Type, { type Static } from 'typebox';
import { defineRoute } from '../routing/route-schema.js';
import { component, orNull } from '../routing/schema-component.js';
import { invalidBody } from '../errors/catalogue.js';

const uuid = Type.String({ format: 'uuid' });

const TemplatePreviewRequest = component('TemplatePreviewRequest', Type.Object({
  booking_id: uuid,
  email_template_id: Type.Optional(orNull(uuid)),
  message_template_id: Type.Optional(orNull(uuid)),
}, { description: 'A booking and exactly one template: an e-mail template or a message template.', additionalProperties: false }));

const TemplatePreview = component('TemplatePreview', Type.Object({
  to: Type.Union([Type.String(), Type.Null()], { description: "The guest's e-mail address (null: the booking has none, nothing would be sent)." }),
  from: Type.String(),
  reply_to: Type.Union([Type.String(), Type.Null()], { description: "The unit's reply-to address, if it has one." }),
  language: Type.String({ description: 'The language the texts were taken in.' }),
  subject: Type.String(),
  body: Type.String({ description: 'Plain text, with the booking details and link blocks the template asks for.' }),
  attachments: Type.Array(Type.Object({
    filename: Type.String(),
    content_type: Type.String(),
    size: Type.Integer({ description: 'Bytes.' }),
  })),
}));
export type TemplatePreview = Static<typeof TemplatePreview>;

export const templatePreview = defineRoute({
  method: 'POST', url: '/template-preview', scope: { resource: 'bookings', access: 'read' },
  operationId: 'template_preview', summary: 'Render a template for a booking without sending it', tags: ['email_templates'],
  description: 'Exactly what the automation would send for this booking now (docs/automations.md). Nothing is stored or sent. '
    + 'Scopes: `bookings:read` and `email_templates:read` (or `message_templates:read`), and the read scopes of the booking\'s record.',
  body: TemplatePreviewRequest,
  responses: { 200: { description: 'The rendered message.', schema: TemplatePreview } },
  errors: ['BadRequest', 'Unauthorized', 'Forbidden', 'NotFound'], invalid: invalidBody,
});
