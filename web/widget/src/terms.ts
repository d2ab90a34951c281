/**
 * What the guest agrees to, shown before the Book button (docs/widget.md#booking-terms-and-the-cancellation-policy):
 * the unit's cancellation policy in the guest's language, and, when the organization has booking terms, the terms
 * and a required checkbox accepting both — the server refuses a booking by the public without it (422 SK649).
 */
import { describeCancellationPolicy } from '../../../src/common/cancellation-policy.js';
import { esc } from './format.js';
import { localize, type Translate } from './i18n.js';
import type { Catalogue, Product } from './types.js';

/** The organization's booking terms in `language` ('' without). */
export function bookingTermsText(terms: Catalogue['booking_terms'], language: string): string {
  if (terms === null || terms === undefined) return '';
  return (typeof terms === 'string' ? terms : localize(terms, language)).trim();
}

/** The policy, and the terms with their checkbox when there are terms: HTML for the booking form. */
export function termsSection(product: Product, terms: string, language: string, t: Translate): string {
  const policy = describeCancellationPolicy(product.cancellation_policy ?? [], language);
  return `<section class="terms" aria-labelledby="policy-title"><h4 id="policy-title">${esc(t('cancellationPolicy'))}</h4>`
    + `<ul data-policy>${policy.map((sentence) => `<li>${esc(sentence)}</li>`).join('')}</ul>`
    + (terms === '' ? '' : `<h4 id="terms-title">${esc(t('bookingTerms'))}</h4>`
      // Long terms scroll in their box, which takes focus so a keyboard can scroll it too.
      + `<div class="terms-text" data-terms role="region" aria-labelledby="terms-title" tabindex="0">${esc(terms)}</div>`
      + `<div class="field accept"><input type="checkbox" id="accept-terms" required aria-required="true" aria-describedby="accept-terms-error">`
      + `<label for="accept-terms">${esc(t('acceptTerms'))}</label></div>`
      + '<p id="accept-terms-error" class="error" role="alert"></p>')
    + '</section>';
}

/**
 * Whether the guest may book as far as the terms go: true without terms or with the box ticked; otherwise the
 * message is shown at the box, which is marked invalid and focused.
 */
export function termsAccepted(root: ShadowRoot, t: Translate): boolean {
  const box = root.querySelector<HTMLInputElement>('#accept-terms');
  const message = root.querySelector<HTMLElement>('#accept-terms-error');
  if (!box || box.checked) {
    box?.removeAttribute('aria-invalid');
    if (message) message.textContent = '';
    return true;
  }
  box.setAttribute('aria-invalid', 'true');
  if (message) message.textContent = t('acceptTermsRequired');
  box.focus();
  return false;
}
