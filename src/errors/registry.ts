/**
 * Every error code a client can see, declared once with its HTTP status and message: PostgREST's (PGRSTnnn, worded
 * as PostgREST v12 words them, which clients depend on), the SQLSTATEs Staykit raises itself, and Staykit's own
 * (SKnnn). A code has one meaning; the constructors (catalogue.ts, auth.ts, booking/errors.ts, limits/errors.ts …)
 * only fill in the message's `{placeholders}`, details and hint. docs/errors.md lists the same table, and
 * test/errors/registry.test.ts keeps the two (and the codes used anywhere in src/) in step.
 *
 * SQLSTATEs raised by PostgreSQL itself pass through with PostgreSQL's message; their statuses are in
 * database-error.ts.
 */
import { ApiError } from './api-error.js';

export interface ErrorDefinition {
  readonly status: number;
  /**
   * What the client reads in `message`; `{name}` is filled in by the constructor. `{message}` alone marks a code
   * whose message names the precise case (a parse error, a rule) and is worded where that case is detected.
   */
  readonly message: string;
  /** What the code means, for docs/errors.md. */
  readonly meaning: string;
  readonly hint?: string;
  /**
   * PostgREST 12's message where 13 rewords it (`message` is 13's): given by `staykit rest --postgrest 12`, whose
   * clients' tests compare messages.
   */
  readonly postgrest12Message?: string;
}

const definitions = {
  PGRST100: { status: 400, message: '{message}', meaning: 'A query parameter (select, filter, order, …) cannot be parsed or is not allowed' },
  PGRST102: { status: 400, message: '{message}', meaning: 'The body is not valid JSON (or not the shape the operation needs)' },
  PGRST103: { status: 416, message: 'Requested range not satisfiable', meaning: 'The requested range or limit cannot be met' },
  PGRST106: { status: 406, message: 'The schema must be one of the following: {schemas}', meaning: 'Accept-Profile or Content-Profile names a schema that is not exposed' },
  PGRST107: { status: 415, message: '{message}', meaning: 'The Content-Type is not supported (415), or nothing in Accept can be produced (406, as PostgREST answers it)' },
  PGRST108: {
    status: 400,
    message: "'{resource}' is not an embedded resource in this request",
    meaning: 'A filter, order or limit names an embed that is not in select',
    hint: "Verify that '{resource}' is included in the 'select' query parameter.",
  },
  PGRST116: {
    status: 406,
    message: 'Cannot coerce the result to a single JSON object',
    meaning: 'A single object was asked for and the result is not one row',
    postgrest12Message: 'JSON object requested, multiple (or no) rows returned',
  },
  PGRST117: { status: 405, message: 'Unsupported HTTP method: {method}', meaning: 'The HTTP method is not supported' },
  PGRST118: { status: 400, message: "A related order on '{target}' is not possible", meaning: 'An order by an embed that is not to-one' },
  PGRST119: {
    status: 400,
    message: "A spread operation on '{target}' is not possible",
    meaning: 'A spread of a to-many embed, which PostgREST 12 refuses (`staykit rest --postgrest 12`); PostgREST 13 and Staykit otherwise allow it',
  },
  PGRST120: { status: 400, message: "Bad operator on the '{target}' embedded resource", meaning: 'A filter on an embed itself other than is.null / not.is.null' },
  PGRST122: { status: 400, message: 'Invalid preferences given with handling=strict', meaning: 'Unknown preferences under Prefer: handling=strict' },
  PGRST123: { status: 400, message: 'Use of aggregate functions is not allowed', meaning: 'An aggregate in select where aggregates are off (staykit rest without --aggregates)' },
  PGRST124: {
    status: 400,
    message: 'Query result exceeds max-affected preference constraint',
    meaning: 'A PATCH, DELETE or function call under Prefer: handling=strict, max-affected=N touched more than N rows; nothing was applied',
  },
  PGRST127: { status: 400, message: 'Feature not implemented', meaning: 'A PostgREST feature that PostgREST itself does not implement (details names it), e.g. aggregates in a to-many spread' },
  PGRST200: { status: 400, message: "Could not find a relationship between '{parent}' and '{child}' in the schema cache", meaning: 'No relationship fits an embed' },
  PGRST201: { status: 300, message: "Could not embed because more than one relationship was found for '{parent}' and '{child}'", meaning: 'More than one relationship fits an embed; details lists them' },
  PGRST202: { status: 404, message: 'Could not find the function {function} in the schema cache', meaning: 'The function does not exist' },
  PGRST204: { status: 400, message: "Could not find the '{column}' column of '{table}' in the schema cache", meaning: 'A column of the payload or columns= does not exist' },
  PGRST205: { status: 404, message: "Could not find the table '{table}' in the schema cache", meaning: 'The table does not exist' },
  PGRSTX00: { status: 500, message: 'Internal server error', meaning: 'An unexpected database-side failure' },
  '42P01': {
    status: 404,
    message: 'relation "{table}" does not exist',
    meaning: 'The table does not exist, as PostgreSQL words it and PostgREST 12 passes it on (`staykit rest --postgrest 12`; otherwise PGRST205)',
  },
  '42703': { status: 400, message: 'column {table}.{column} does not exist', meaning: 'A column of select, a filter or order does not exist (as PostgreSQL words it)' },
  '42712': { status: 400, message: 'table name "{alias}" specified more than once', meaning: 'The same relationship is embedded twice at one level without an alias (as PostgreSQL words it)' },
  SK400: { status: 400, message: 'a filter is required for PATCH and DELETE', meaning: 'PATCH or DELETE without a filter' },
  SK401: { status: 401, message: '{message}', meaning: 'No API key, a malformed Authorization header, or an unknown, expired or revoked key' },
  SK402: { status: 400, message: '{feature} is not supported', meaning: 'A PostgREST feature Staykit does not implement' },
  SK403: {
    status: 403,
    message: 'This API key lacks the scope "{scope}"',
    meaning: 'The API key lacks the scope the request needs',
    hint: 'Create a key with the needed scope: staykit key create --org <ID> --scopes …',
  },
  SK404: { status: 404, message: '{message}', meaning: 'No such route, or no such object behind a route (e.g. a webhook)' },
  SK405: { status: 405, message: "{method} is not allowed on '{table}'", meaning: 'The method is not offered on this table', hint: 'Allowed methods: {allow}' },
  SK407: { status: 400, message: "column '{column}' of '{table}' cannot be set by {operation}", meaning: 'A column that cannot be written was sent under Prefer: handling=strict' },
  SK408: {
    status: 403,
    message: '{message}',
    meaning: 'A member or key tried to grant, change or remove a permission or an owner/admin role beyond its own grants',
    hint: 'Ask an owner or admin, or someone who holds that grant',
  },
  SK410: { status: 400, message: '{message}', meaning: 'A request the HTTP layer refuses before routing (e.g. a bad percent-encoding); the status is the HTTP layer\'s' },
  SK413: { status: 413, message: 'The request body is too large', meaning: 'The request body is larger than STAYKIT_BODY_LIMIT' },
  SK414: { status: 414, message: 'The request URI is too long', meaning: 'The request target or one path segment is longer than allowed' },
  SK420: {
    status: 400,
    message: 'The webhook endpoint is not allowed',
    meaning: 'A webhook endpoint that can never be delivered to',
    hint: 'Endpoints must be https URLs whose host resolves to public addresses only',
  },
  SK429: {
    status: 429,
    message: 'Too many requests',
    meaning: 'A rate-limit policy is exhausted',
    hint: 'Slow down: the RateLimit and RateLimit-Policy response headers tell how many requests are left',
  },
  SK430: {
    status: 429,
    message: 'Too many concurrent requests for this organization',
    meaning: 'The organization has as many requests running and waiting on this server as allowed',
    hint: 'Send fewer requests at once (slow ones especially), and retry after Retry-After seconds',
  },
  SK440: { status: 413, message: 'a bulk insert takes at most {max} rows', meaning: 'A bulk POST holds more rows than allowed' },
  SK500: { status: 500, message: 'Internal server error', meaning: 'An unexpected failure; the hint names the request id in the server log' },
  SK503: {
    status: 503,
    message: 'The database is unavailable',
    meaning: 'The database cannot be reached',
    hint: 'Retry the request; nothing of it was applied unless it was acknowledged',
  },
  SK601: { status: 400, message: '{message}', meaning: 'A booking-flow body or query parameter is malformed' },
  SK602: { status: 404, message: '{product} not found', meaning: 'The product does not exist in this organization' },
  SK603: {
    status: 400,
    message: 'Unknown capacity group {group}',
    meaning: 'An occupancy key is not a capacity group of this organization',
    hint: 'occupancy maps capacity_groups ids to numbers of guests',
  },
  SK604: { status: 400, message: 'Service {service} is not offered for this product', meaning: 'A form value names a service not offered for the product' },
  SK605: { status: 404, message: '{coupon} not found', meaning: 'No active coupon has this code' },
  SK610: {
    status: 409,
    message: 'The product is not available for these dates',
    meaning: 'The dates (with cooldown) overlap a booking or blocked period',
    hint: 'GET /v1/availability shows the free dates',
  },
  SK611: { status: 422, message: '{message}', meaning: 'The stay breaks a rule of the product; details lists every reason' },
  SK612: { status: 422, message: '{message}', meaning: "The occupancy breaks the product's capacities; details lists every reason" },
  SK613: { status: 422, message: 'No rate applies to the night of {date} for this length of stay and occupancy', meaning: 'No rate applies to a night of the stay' },
  SK614: { status: 422, message: 'Coupon {coupon} does not apply: {reason}', meaning: 'The coupon does not apply to this stay' },
  SK615: { status: 422, message: '{coupon} has no uses left', meaning: "The coupon's quota is used up" },
  SK616: { status: 422, message: 'Coupon {coupon} cannot be combined with other coupons', meaning: 'A non-stackable coupon combined with another' },
  SK617: { status: 422, message: '{message}', meaning: 'A form value is missing or not valid for its service; details lists every reason' },
  SK618: { status: 422, message: 'Currency {currency} is not available for this product', meaning: "The requested currency is not the product's" },
  SK620: {
    status: 409,
    message: 'A request with this Idempotency-Key is still being processed',
    meaning: 'A request with this Idempotency-Key is still running',
    hint: 'Retry after the first request has finished',
  },
  SK621: {
    status: 422,
    message: 'This Idempotency-Key was already used with a different request',
    meaning: 'The Idempotency-Key was used for a different request',
    hint: 'Use a new key for a new request',
  },
  SK622: { status: 400, message: 'Idempotency-Key must be 1 to 255 visible ASCII characters', meaning: 'The Idempotency-Key header is malformed' },
  SK630: {
    status: 422,
    message: 'Cart item {item}: {message}',
    meaning: "A cart item failed and nothing was booked; the status is the item's error's (422 or 409), details holds it",
    hint: 'Nothing was booked',
  },
  SK640: { status: 404, message: 'Site {site} not found', meaning: "site_id of a booking is not one of the organization's sites" },
  SK641: { status: 404, message: 'Widget {widget} not found', meaning: "widget_id of a booking is not one of the organization's widgets" },
  SK642: { status: 404, message: 'Booking {booking} not found', meaning: 'The booking does not exist in this organization' },
  SK643: { status: 409, message: '{message}', meaning: 'The booking cannot be changed in its state (cancelled, or not made by the booking flow)' },
  SK644: {
    status: 409,
    message: '{message}',
    meaning: "A booking event's dates or unit were changed directly; a booking is changed with POST /v1/booking-change",
    hint: 'POST /v1/booking-change re-checks the rules and re-prices the booking',
  },
  SK645: { status: 409, message: '{message}', meaning: 'A released coupon use cannot be taken again: the coupon has no uses left' },
  SK646: {
    status: 403,
    message: 'A publishable key cannot make a silent booking',
    meaning: 'A publishable-key request of the booking flow sent "silent": true; whether the guest is sent e-mail is the organization\'s choice',
    hint: 'Leave silent out; a server with a secret key can book silently',
  },
  SK648: {
    status: 422,
    message: "A booking through the widget or booking site needs the guest's name and e-mail address",
    meaning: 'A publishable-key /book or /cart-checkout names no guest name or no e-mail address (in contact or the booking form)',
    hint: 'Send contact.first_name (or last_name) and contact.email',
  },
  SK649: {
    status: 422,
    message: 'The guest must accept the booking terms and the cancellation policy to book',
    meaning: 'A publishable-key /book or /cart-checkout without "accept_terms": true while the organization has booking terms (settings.booking_terms)',
    hint: 'Show the booking terms (GET /v1/widget: booking_terms) and send "accept_terms": true once the guest accepted them',
  },
  SK647: {
    status: 403,
    message: 'This form can only be sent from its own page at {origin}',
    meaning: "A guest-page form was posted with an Origin (or, without one, a Referer) that is not the server's public origin (STAYKIT_PUBLIC_URL), or with neither",
    hint: 'Open the booking page again and send the form from there; the server\'s operator sets its address in STAYKIT_PUBLIC_URL',
  },
  SK700: { status: 401, message: 'The e-mail address or password is wrong', meaning: 'A dashboard login with an unknown e-mail address or a wrong password (the same answer for both)' },
  SK701: {
    status: 401,
    message: 'You are not logged in, or your session has expired',
    meaning: 'A dashboard session cookie that is missing, unknown, revoked, idle for too long or past its absolute expiry',
    hint: 'Log in again: POST /auth/login',
  },
  SK702: {
    status: 403,
    message: 'The X-CSRF-Token header is missing or does not match the session',
    meaning: 'A write with a session cookie and without its CSRF token',
    hint: 'Send the csrf_token of POST /auth/login or GET /auth/session as X-CSRF-Token',
  },
  SK703: { status: 403, message: 'Your role lacks the permission "{scope}"', meaning: "The member's role and permissions do not allow the request", hint: 'An owner or admin of the organization can grant it' },
  SK704: { status: 403, message: 'You are not a member of this organization', meaning: 'A dashboard user asked for an organization they are not an active member of' },
  SK705: { status: 400, message: '{message}', meaning: 'A body of /auth/* is malformed (an e-mail address, a password, a token, an organization id)' },
  SK706: { status: 400, message: 'The link to set a password is invalid, used or expired', meaning: 'POST /auth/set-password with a token that cannot be used', hint: 'Ask for a new link: staykit user reset-password' },
  SK707: {
    status: 400,
    message: 'Text may not contain the NUL character (U+0000)',
    meaning: 'A NUL character in a request body (JSON string, CSV, text, form), path or query string: PostgreSQL text cannot hold it',
    hint: 'Remove the character; send binary data encoded (e.g. base64)',
  },
  SK708: {
    status: 403,
    message: '{message}',
    meaning: 'A member tried to change, add or remove a member (or their permissions) of a higher role than their own, or to give a role above their own',
    hint: 'Ask a member of that role or higher',
  },
  SK709: {
    status: 409,
    message: '{message}',
    meaning: 'A member cannot be invited: no e-mail address, a former member, or a login of their own already',
  },
  SK710: {
    status: 502,
    message: 'The invitation e-mail could not be sent: {message}',
    meaning: 'The mail server refused or did not take the invitation; the member is linked and the link is valid, send it again',
    hint: 'Check SMTP_URL, then invite again (the new link voids the old one)',
  },
  SK660: { status: 409, message: '{message}', meaning: 'A payment\'s status cannot make this move; the hint lists the allowed moves' },
  SK661: { status: 409, message: '{message}', meaning: 'A refund\'s status cannot make this move; the hint lists the allowed moves' },
  SK662: { status: 409, message: '{message}', meaning: 'An invoice\'s status cannot make this move; the hint lists the allowed moves' },
  SK663: { status: 409, message: '{message}', meaning: 'A paid payment, a settled refund or an issued invoice (and its lines) cannot be changed' },
  SK664: { status: 409, message: '{message}', meaning: 'The refunds of a payment would add up to more than the payment' },
  SK665: { status: 409, message: '{message}', meaning: 'Only a paid payment can be refunded' },
  SK666: { status: 422, message: '{message}', meaning: 'A payment\'s or invoice\'s currency is not its booking\'s' },
  SK667: { status: 409, message: '{message}', meaning: 'A paid payment, a refunded refund or an issued invoice cannot be deleted' },
  SK668: { status: 409, message: '{message}', meaning: 'An invoice can be voided only once credit invoices cancel its total' },
  SK669: { status: 422, message: '{message}', meaning: 'A credit invoice does not fit the invoice it corrects' },
  SK670: { status: 400, message: 'The Stripe-Signature of this event is missing or not valid', meaning: 'A Stripe webhook event whose signature does not verify; nothing was changed' },
  SK671: { status: 409, message: 'Online payment is not set up for this organization', meaning: 'A Stripe payment link was asked for, but the organization has no Stripe keys', hint: 'PUT /v1/payment-settings with the organization\'s Stripe keys' },
  SK672: { status: 502, message: 'Stripe refused the request: {reason}', meaning: 'Stripe answered an error or could not be reached; nothing was changed at Staykit' },
  SK673: { status: 406, message: 'An invoice is available as application/pdf', meaning: 'GET /v1/invoices/{id} serves the PDF only', hint: 'Send Accept: application/pdf (or read the invoice as JSON from GET /v1/invoices?id=eq.{id})' },
  SK675: { status: 400, message: '{message}', meaning: 'A money request is malformed: its body (payment settings, payment link) or the id in its path (an invoice, the organization of a Stripe event)' },
  SK676: { status: 404, message: '{message}', meaning: 'No payment of this booking is due' },
  SK677: { status: 422, message: '{message}', meaning: "The organization's invoice number pattern cannot number invoices" },
  SK678: { status: 409, message: 'This server has no STAYKIT_SECRET_KEY to encrypt payment keys with', meaning: 'Payment keys cannot be stored: the server is configured without STAYKIT_SECRET_KEY', hint: 'Set STAYKIT_SECRET_KEY (docs/payments.md#stripe) and restart the server' },
  SK679: { status: 422, message: '{message}', meaning: 'A payment\'s paid_at or a refund\'s refunded_at is in the future (more than 5 minutes ahead)' },
  SK720: {
    status: 403,
    message: 'A publishable key cannot be used for {operation}',
    meaning: 'A publishable key was used outside the public catalogue and the booking flow of its widget or site',
    hint: 'Publishable keys read the widget catalogue and use availability, search, quote, book and the cart; use a secret key on a server for anything else',
  },
  SK721: { status: 403, message: 'Product {product} is not listed on the widget or site of this publishable key', meaning: "A publishable key named a product its widget or site does not list" },
  SK722: {
    status: 403,
    message: 'The origin {origin} is not allowed for this publishable key',
    meaning: "A page whose origin is not in the widget's or site's allowed_origins used its publishable key",
    hint: 'Add the origin to allowed_origins of the widget or site',
  },
  SK725: { status: 400, message: '{message}', meaning: 'A publishable-key, widget or guest-page request is malformed' },
  SK740: { status: 400, message: '{message}', meaning: 'A change feed request (GET /v1/changes) has a malformed cursor, limit or types' },
  SK741: {
    status: 410,
    message: 'The cursor is older than the change feed keeps: changes after it may have been deleted',
    meaning: 'GET /v1/changes was given a cursor from before the retention period (STAYKIT_CHANGE_RETENTION)',
    hint: 'Resynchronize: read the resources you follow in full, then page GET /v1/changes from a cursor taken before that read',
  },
  SK742: {
    status: 403,
    message: 'The webhook event "{event}" needs the read scope "{scope}"',
    meaning: 'A webhook was subscribed to, repointed or enabled for an event, or its notifications redelivered, by a key or member lacking a read scope its payload needs',
    hint: 'Subscribing to an event, repointing or enabling a webhook that has it, and redelivering its notifications take the read scope of every resource its payload carries (docs/webhooks.md#event-scopes)',
  },
  SK760: {
    status: 415,
    message: 'The upload is not an image Staykit accepts',
    meaning: 'POST /v1/media was sent bytes that are not a JPEG, PNG, WebP, AVIF or HEIC image (whatever its Content-Type or file name says)',
    hint: 'Send a JPEG, PNG, WebP, AVIF or HEIC photo',
  },
  SK761: {
    status: 413,
    message: 'The image is larger than {limit} bytes',
    meaning: 'An upload to POST /v1/media is larger than STAYKIT_MEDIA_MAX_BYTES',
    hint: 'Send a smaller file: a photo is shown at most 1600 pixels wide',
  },
  SK762: {
    status: 422,
    message: 'The image declares {pixels} pixels, more than the {limit} allowed',
    meaning: 'An upload declares more pixels than STAYKIT_MEDIA_MAX_PIXELS (a decompression bomb is refused before it is decoded)',
  },
  SK763: {
    status: 422,
    message: '{message}',
    meaning: 'The organization keeps as many images as STAYKIT_MEDIA_PER_ORGANIZATION allows',
    hint: 'Delete images no unit shows (DELETE /v1/media?id=eq.…) before uploading more',
  },
  SK764: {
    status: 409,
    message: '{message}',
    meaning: "A media row was deleted while a unit's images still show it (details name the unit) or it is the organization's logo",
    hint: "Remove the image from the unit's images instead: it is deleted with its files when no unit shows it",
  },
  SK765: { status: 400, message: '{message}', meaning: "A product's images are not a list of {media_id, alt, cover} (alt: language → text; at most one cover)" },
  SK766: { status: 404, message: '{message}', meaning: "A product's images or the organization's logo (settings.logo_media_id) name a media id that is not one of the organization's" },
  SK767: { status: 400, message: '{message}', meaning: 'A POST /v1/media request is malformed: no image in it, several, or an unknown field' },
  SK680: {
    status: 400,
    message: '{field} does not render: {message}',
    meaning: "An e-mail or message template's subject or body has a Liquid syntax error, an unknown variable or an unknown filter; details give the line and column",
    hint: 'The variables a template may use are listed in docs/automations.md#variables',
  },
  SK681: { status: 400, message: '{message}', meaning: "An e-mail template's attachments are not a list of {filename, content (base64), content_type}" },
  SK682: {
    status: 400,
    message: '{field} must be one e-mail address, optionally with a name: Name <address>',
    meaning: "An outbound e-mail message's to_address or from_address is not one e-mail address",
  },
  SK683: {
    status: 429,
    message: 'Too much heavy work (rendering, PDFs) waiting for this organization',
    meaning: "The organization has as many rendering or PDF tasks running and waiting on this server as allowed (STAYKIT_COMPUTE_PER_ORGANIZATION, STAYKIT_COMPUTE_QUEUE), or its task waited longer than STAYKIT_COMPUTE_TIMEOUT (an image upload: STAYKIT_MEDIA_TIMEOUT) for a thread",
    hint: 'Retry after Retry-After seconds, with fewer such requests at once',
  },
  SK684: {
    status: 422,
    message: 'The work this request asks for took longer than {seconds} s and was stopped',
    meaning: "A rendering or PDF task ran past STAYKIT_COMPUTE_TIMEOUT (an image upload's resizing: STAYKIT_MEDIA_TIMEOUT); the thread running it was stopped",
    hint: 'Ask for less at once (a shorter template, fewer invoice lines)',
  },
  SK685: {
    status: 422,
    message: 'An invoice PDF holds at most {max} lines; this invoice has {count}',
    meaning: 'The invoice has more lines than one PDF may draw',
    hint: 'Issue the stay on several invoices, or read its lines as JSON from GET /v1/line_items',
  },
  SK686: {
    status: 400,
    message: '{field} has {count} languages; a template may have at most {max}',
    meaning: "An e-mail or message template's subject or body has more languages than allowed",
  },
  SK687: {
    status: 403,
    message: 'A test e-mail goes to the signed-in user\'s own address; an API key has no user',
    meaning: 'POST /v1/template-test-send without a dashboard session (an API key): there is no own address to send the test to',
    hint: 'Send tests from the dashboard; with a key, use POST /v1/template-preview',
  },
  SK688: {
    status: 502,
    message: 'The test e-mail could not be sent: {message}',
    meaning: 'The mail server refused or did not take a test e-mail; nothing else was sent or changed',
    hint: 'Check SMTP_URL, then send the test again',
  },
  SK690: {
    status: 404,
    message: 'This server receives no e-mail through a provider webhook',
    meaning: 'POST /v1/inbound-email on a server without STAYKIT_INBOUND_WEBHOOK_SECRET',
    hint: 'Set STAYKIT_INBOUND_DOMAIN and STAYKIT_INBOUND_WEBHOOK_SECRET (docs/automations.md#inbox), or use the SMTP listener',
  },
  SK691: {
    status: 401,
    message: 'The inbound e-mail webhook needs its secret',
    meaning: 'POST /v1/inbound-email without HTTP Basic authentication whose password is STAYKIT_INBOUND_WEBHOOK_SECRET',
    hint: 'Give the provider the webhook URL as https://staykit:SECRET@host/v1/inbound-email',
  },
  SK692: {
    status: 403,
    message: 'The e-mail is for no reply address of this server and answers no message it sent',
    meaning: 'An inbound e-mail names no reply address (reply+…@STAYKIT_INBOUND_DOMAIN) of an existing booking among its recipients, and no stored message in In-Reply-To or References; nothing was stored',
  },
  SK693: { status: 400, message: '{message}', meaning: "POST /v1/inbound-email's body is not an inbound e-mail in Postmark's format" },
} as const satisfies Record<string, ErrorDefinition>;

export type ErrorCode = keyof typeof definitions;

export const ERROR_REGISTRY: Readonly<Record<ErrorCode, ErrorDefinition>> = Object.freeze(
  Object.fromEntries(Object.entries(definitions).map(([code, definition]) => [code, Object.freeze(definition)])) as Record<ErrorCode, ErrorDefinition>,
);

export interface ErrorOptions {
  /** Values of the message's and hint's `{placeholders}`. */
  params?: Record<string, string | number>;
  details?: string | null;
  /** Replaces the registry's hint (null: none). */
  hint?: string | null;
  headers?: Record<string, string>;
  /** Only for the codes whose meaning says their status varies (PGRST107, SK410, SK630). */
  status?: number;
  /** Worded as PostgREST 12 words it, where the registry has that wording (`staykit rest --postgrest 12`). */
  postgrest12?: boolean;
}

function fill(template: string, params: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (placeholder, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`error template ${template} needs {${name}}`);
    return String(value);
  });
}

/** The ApiError of `code`, its message and hint filled in from `options.params`. */
export function apiError(code: ErrorCode, options: ErrorOptions = {}): ApiError {
  const definition = ERROR_REGISTRY[code];
  const params = options.params ?? {};
  const registryHint = definition.hint === undefined ? null : fill(definition.hint, params);
  const message = options.postgrest12 === true && definition.postgrest12Message !== undefined ? definition.postgrest12Message : definition.message;
  return new ApiError(options.status ?? definition.status, code, fill(message, params), {
    details: options.details ?? null,
    hint: options.hint === undefined ? registryHint : options.hint,
    headers: options.headers,
  });
}
