/**
 * The HTML alternative of an automated e-mail, beside its plain text: the organization's logo and name (on a bar of its
 * brand colour when it has one, the colour also on the button, with text of the colour that contrasts), the unit's cover photo
 * (`include_product_image`), the template's text in paragraphs, the booking details (`include_booking_details`) and
 * a button to the guest's booking page (`include_booking_link`). Written in MJML, whose compiler turns it into the
 * table-based HTML that Gmail, Outlook and Apple Mail render alike. Every value is escaped here: the template's
 * output is text, never markup, so a guest's name or an organization's text cannot add HTML to the e-mail.
 * Runs in a compute thread with the rest of the composing (src/automations/render-tasks.ts).
 */
import mjml2html from 'mjml';
import { escapeHtml as e } from '../common/html.js';
import { localizedText } from '../common/languages.js';
import { BRAND_COLOR_PATTERN, DEFAULT_ACCENT as ACCENT, logoDisplayWidth, textColorOn } from '../common/brand-color.js';
import type { CoverPhoto } from '../media/cover.js';
import type { BrandLogo } from './context.js';

export interface HtmlEmailContent {
  language: string;
  subject: string;
  organization: string;
  /** The template's rendered text; blank lines separate paragraphs. */
  text: string;
  /** The booking-details block's lines, when the template includes it. */
  details: string[] | null;
  /** The button to the guest's page, when the template includes it. */
  link: { label: string; url: string } | null;
  /** The unit's cover photo, when the template includes it and the unit has one; `base` makes its URL absolute. */
  cover: { photo: CoverPhoto; base: string } | null;
  /** The organization's brand colour (#rrggbb) and logo (`base` makes its URL absolute); each null: the default look. */
  brand: { color: string | null; logo: { image: BrandLogo; base: string } | null };
}

/** E-mail clients show JPEG everywhere; 800 pixels serve a 600-pixel column on high-density screens too. */
const COVER_WIDTH = 800;

/** The smallest JPEG at least `width` pixels wide, else the largest (e-mail clients show JPEG everywhere). */
function jpegFor(variants: BrandLogo['variants'], width: number): BrandLogo['variants'][number] | undefined {
  const jpegs = variants.filter((variant) => variant.format === 'jpeg').sort((a, b) => a.width - b.width);
  return jpegs.find((variant) => variant.width >= width) ?? jpegs[jpegs.length - 1];
}

const paragraphs = (text: string): string[] =>
  text.split(/\n\s*\n/).map((paragraph) => paragraph.trim()).filter((paragraph) => paragraph !== '');

const withBreaks = (text: string): string => e(text).replace(/\n/g, '<br>');

function coverSection({ photo, base }: NonNullable<HtmlEmailContent['cover']>, language: string): string {
  const chosen = jpegFor(photo.variants, COVER_WIDTH);
  const src = `${base}${chosen?.url ?? photo.url}`;
  return `<mj-section background-color="#ffffff" padding="0"><mj-column>
<mj-image src="${e(src)}" alt="${e(localizedText(photo.alt, language))}" padding="0" fluid-on-mobile="true" /></mj-column></mj-section>`;
}

/** The logo, on white (its JPEG has no transparency), scaled into the header's box; sharp on high-density screens. */
function logoSection({ image, base }: NonNullable<HtmlEmailContent['brand']['logo']>, organization: string): string {
  const width = logoDisplayWidth(image.width, image.height);
  const src = `${base}${jpegFor(image.variants, 2 * width)?.url ?? image.url}`;
  return `<mj-section background-color="#ffffff" padding="20px 24px"><mj-column>
<mj-image src="${e(src)}" alt="${e(organization)}" width="${width}px" align="left" padding="0" /></mj-column></mj-section>`;
}

/** The organization's name: on a bar of its colour, else in the default accent on the page's grey. */
function nameSection(organization: string, color: string | null): string {
  return color
    ? `<mj-section background-color="${e(color)}" padding="16px 24px"><mj-column><mj-text font-size="20px" font-weight="700" color="${textColorOn(color)}" padding="0">${e(organization)}</mj-text></mj-column></mj-section>`
    : `<mj-section padding="24px 24px 12px"><mj-column><mj-text font-size="20px" font-weight="700" color="${ACCENT}" padding="0">${e(organization)}</mj-text></mj-column></mj-section>`;
}

/** The MJML document of a message (exported for the tests' MJML validation). */
export function emailMjml(content: HtmlEmailContent): string {
  const body = paragraphs(content.text).map((paragraph) => `<mj-text padding="0 0 16px">${withBreaks(paragraph)}</mj-text>`).join('\n');
  const details = content.details
    ? `<mj-section background-color="#ffffff" padding="0 24px 8px"><mj-column background-color="#f3f4f6" border-radius="6px">
<mj-text padding="16px" font-size="14px" line-height="22px">${content.details.map((line) => withBreaks(line.trim())).join('<br>')}</mj-text>
</mj-column></mj-section>` : '';
  // The database holds the shape (migration 0235); a colour of another shape would fail MJML's strict validation.
  const color = content.brand.color && BRAND_COLOR_PATTERN.test(content.brand.color) ? content.brand.color.toLowerCase() : null;
  const link = content.link
    ? `<mj-section background-color="#ffffff" padding="8px 24px 24px"><mj-column>
<mj-button href="${e(content.link.url)}" background-color="${e(color ?? ACCENT)}" color="${color ? textColorOn(color) : '#ffffff'}" border-radius="6px" font-size="16px" align="left" padding="0">${e(content.link.label)}</mj-button>
</mj-column></mj-section>` : '';
  return `<mjml lang="${e(content.language)}">
<mj-head>
<mj-title>${e(content.subject)}</mj-title>
<mj-preview>${e(paragraphs(content.text)[0] ?? content.subject)}</mj-preview>
<mj-attributes><mj-all font-family="Helvetica, Arial, sans-serif" /><mj-text font-size="16px" line-height="24px" color="#111827" /></mj-attributes>
</mj-head>
<mj-body background-color="#f3f4f6" width="600px">
${content.brand.logo ? logoSection(content.brand.logo, content.organization) : ''}
${nameSection(content.organization, color)}
${content.cover ? coverSection(content.cover, content.language) : ''}
<mj-section background-color="#ffffff" padding="24px 24px 8px"><mj-column>
${body}
</mj-column></mj-section>
${details}
${link}
<mj-section padding="16px 24px"><mj-column><mj-text font-size="12px" line-height="18px" color="#6b7280" padding="0">${e(content.organization)}</mj-text></mj-column></mj-section>
</mj-body>
</mjml>`;
}

export async function renderHtmlEmail(content: HtmlEmailContent): Promise<string> {
  const { html } = await mjml2html(emailMjml(content), { validationLevel: 'strict', minify: false, keepComments: false });
  return html;
}
