/**
 * The template preview and test-send written once (src/routing/route-schema.ts): method, url, scope, documentation and the TypeBox
 * schemas of its body and answer, from which routes.ts registers it (validated, typed) and openapi.ts documents it.
 */
import Type, { type Static } from 'typebox';
import { defineRoute } from '../routing/route-schema.js';
import { component, orNull } from '../routing/schema-component.js';
import { invalidBody } from '../errors/catalogue.js';

const uuid = Type.String({ format: 'uuid' });

const languageTexts = (what: string) => Type.Object({ default: Type.String() }, {
  additionalProperties: Type.String(), description: `${what} per language (\`default\`, \`en\`, \`nl\`, …), as the template's column holds it.`,
});

const TemplateDraft = component('TemplateDraft', Type.Object({
  subject: Type.Optional(languageTexts('The subject')),
  body: Type.Optional(languageTexts('The body')),
  include_booking_details: Type.Optional(Type.Boolean()),
  include_booking_link: Type.Optional(Type.Boolean()),
  include_ical_data: Type.Optional(Type.Boolean()),
  include_product_image: Type.Optional(Type.Boolean()),
  attachments: Type.Optional(Type.Array(Type.Object({
    filename: Type.String(),
    content_type: Type.Optional(Type.String()),
    content: Type.String({ description: 'Base64.' }),
  }, { additionalProperties: false }))),
}, {
  description: "An e-mail template's fields as an editor holds them, not yet saved: each given field replaces the stored "
    + "template's (all of them make a new one). Checked as a save checks them (SK680, SK681, SK686), and stored nowhere.",
  additionalProperties: false,
}));
export type TemplateDraft = Static<typeof TemplateDraft>;

const TemplatePreviewRequest = component('TemplatePreviewRequest', Type.Object({
  booking_id: uuid,
  email_template_id: Type.Optional(orNull(uuid)),
  message_template_id: Type.Optional(orNull(uuid)),
  draft: Type.Optional(TemplateDraft),
}, {
  description: 'A booking and exactly one template: an e-mail template or a message template; or an e-mail template '
    + 'being edited: a `draft`, with the `email_template_id` it changes or without one for a new template.',
  additionalProperties: false,
}));
export type TemplatePreviewRequest = Static<typeof TemplatePreviewRequest>;

const TemplatePreview = component('TemplatePreview', Type.Object({
  to: Type.Union([Type.String(), Type.Null()], { description: "The guest's e-mail address (null: the booking has none, nothing would be sent)." }),
  from: Type.String(),
  reply_to: Type.Union([Type.String(), Type.Null()], { description: "The unit's reply-to address, if it has one." }),
  language: Type.String({ description: 'The language the texts were taken in.' }),
  subject: Type.String(),
  body: Type.String({ description: 'Plain text, with the booking details and link blocks the template asks for.' }),
  html: Type.String({ description: 'The HTML alternative (docs/automations.md#html-e-mails); the cover photo only when the caller may read media.' }),
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
  description: 'Exactly what the automation would send for this booking now (docs/automations.md), or what a `draft` of an '
    + 'e-mail template would. Nothing is stored or sent. '
    + 'Scopes: `bookings:read` and `email_templates:read` (or `message_templates:read`), and the read scopes of the booking\'s record.',
  body: TemplatePreviewRequest,
  responses: { 200: { description: 'The rendered message.', schema: TemplatePreview } },
  errors: ['BadRequest', 'Unauthorized', 'Forbidden', 'NotFound'], invalid: invalidBody,
});

const TemplateTestSent = component('TemplateTestSent', Type.Object({
  to: Type.String({ description: "The signed-in user's own e-mail address: the only one a test goes to." }),
  subject: Type.String({ description: 'As sent: the rendered subject, marked `[Test]`.' }),
}));
export type TemplateTestSent = Static<typeof TemplateTestSent>;

export const templateTestSend = defineRoute({
  method: 'POST', url: '/template-test-send', scope: { resource: 'email_templates', access: 'write' },
  operationId: 'template_test_send', summary: 'E-mail a template, rendered for a booking, to yourself', tags: ['email_templates'],
  description: 'Renders as `POST /template-preview` does (a stored template or a draft) and sends the result through the '
    + 'server\'s mailer to the signed-in user\'s own address, never to the guest, with the subject marked `[Test]`. '
    + 'Only a dashboard session has a user (an API key: 403 SK687). At most 10 per user per 10 minutes (429 SK429). '
    + 'Scopes: `email_templates:write`, `bookings:read`, the template\'s table\'s read scope and the read scopes of the booking\'s record.',
  body: TemplatePreviewRequest,
  responses: { 200: { description: 'Sent.', schema: TemplateTestSent } },
  errors: ['BadRequest', 'Unauthorized', 'Forbidden', 'NotFound', 'TooManyRequests', 'BadGateway'], invalid: invalidBody,
});
