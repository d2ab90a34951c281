/**
 * The inbound e-mail webhook's route written once (src/routing/route-schema.ts): a mail provider's inbound webhook
 * posts each e-mail to Staykit's inbound domain here, in Postmark's inbound JSON (docs/automations.md#inbox). The
 * fields Staykit reads are declared and checked; the payload's other fields (a provider adds some over time) are
 * allowed and ignored, so a provider's new field never loses a guest's mail.
 */
import Type, { type Static } from 'typebox';
import { defineRoute } from '../routing/route-schema.js';
import { component } from '../routing/schema-component.js';
import { inboundBodyInvalid } from './errors.js';

const open = { additionalProperties: true };
const Address = Type.Object({ Email: Type.String(), Name: Type.Optional(Type.String()) }, open);

export const PostmarkInbound = component('PostmarkInboundEmail', Type.Object({
  FromFull: Type.Optional(Address),
  From: Type.Optional(Type.String({ description: 'The sender, when FromFull is not given.' })),
  ToFull: Type.Optional(Type.Array(Address)),
  CcFull: Type.Optional(Type.Array(Address)),
  BccFull: Type.Optional(Type.Array(Address)),
  OriginalRecipient: Type.Optional(Type.String({ description: 'The address the provider received it for.' })),
  Subject: Type.Optional(Type.String()),
  TextBody: Type.Optional(Type.String()),
  HtmlBody: Type.Optional(Type.String({ description: 'Made text when TextBody is empty.' })),
  Headers: Type.Optional(Type.Array(Type.Object({ Name: Type.String(), Value: Type.String() }, open), {
    description: 'The e-mail\'s headers: Message-ID, In-Reply-To and References thread it.',
  })),
  Attachments: Type.Optional(Type.Array(Type.Object({
    Name: Type.String(), ContentType: Type.String(), ContentLength: Type.Optional(Type.Integer({ minimum: 0 })),
    Content: Type.Optional(Type.String({ description: 'Base64.' })), ContentID: Type.Optional(Type.String()),
  }, open))),
}, { ...open, description: 'One inbound e-mail in Postmark\'s inbound webhook format (other fields are ignored).' }));
export type PostmarkInboundEmail = Static<typeof PostmarkInbound>;

const InboundReceipt = component('InboundEmailReceipt', Type.Object({
  outcome: Type.Union([Type.Literal('stored'), Type.Literal('duplicate')], {
    description: '`stored`: a new inbound message; `duplicate`: this e-mail (its Message-ID) was stored before.',
  }),
  message_id: Type.Optional(Type.String({ format: 'uuid', description: 'The stored message (outcome `stored`).' })),
}, { additionalProperties: false }));

export const inboundEmailRoute = defineRoute({
  method: 'POST', url: '/inbound-email', scope: undefined,
  operationId: 'inbound_email', summary: 'A mail provider\'s inbound e-mail (a guest\'s reply)', tags: ['messages'],
  security: [],
  description: 'A mail provider\'s inbound webhook (Postmark\'s format) delivers an e-mail sent to a reply address of '
    + 'STAYKIT_INBOUND_DOMAIN; it is stored like a reply the SMTP listener receives (docs/automations.md#inbox). '
    + 'Authenticated with HTTP Basic: any user name, the password STAYKIT_INBOUND_WEBHOOK_SECRET (401 SK691 otherwise; '
    + '404 SK690 when the server has none). An e-mail for no reply address that answers no stored message is refused '
    + 'with 403 SK692 (Postmark does not retry a 403).',
  body: PostmarkInbound, invalid: inboundBodyInvalid,
  responses: { 200: { description: 'Stored, or stored before.', schema: InboundReceipt } },
  errors: ['BadRequest', 'Unauthorized', 'Forbidden', 'NotFound', 'PayloadTooLarge'],
});
