/**
 * The request and response bodies of the template preview (routes.ts), each written once as a TypeBox schema: JSON
 * Schema for the OpenAPI document (openapi.ts) and, through `Static`, the handler's TypeScript types.
 */
import Type, { type Static } from 'typebox';

const uuid = Type.String({ format: 'uuid' });
const optionalId = Type.Optional(Type.Union([uuid, Type.Null()]));

export const TemplatePreviewRequest = Type.Object({
  booking_id: uuid,
  email_template_id: optionalId,
  message_template_id: optionalId,
}, { description: 'A booking and exactly one template: an e-mail template or a message template.', additionalProperties: false });

export const TemplatePreview = Type.Object({
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
});
export type TemplatePreview = Static<typeof TemplatePreview>;
