/**
 * An organization's brand colour (organizations.settings.brand_color, migration 0235) and the text written on it:
 * shared by the e-mails (src/automations/html-email.ts) and the dashboard's preview of them, so both pick the same.
 */

/** The shape the database accepts (staykit_internal.is_brand_color). */
export const BRAND_COLOR_PATTERN = /^#[0-9a-fA-F]{6}$/;

/** Text on a dark colour: white. */
export const LIGHT_TEXT = '#ffffff';
/** Text on a light colour: the e-mails' body text colour. */
export const DARK_TEXT = '#111827';

/** WCAG 2 relative luminance of a #rrggbb colour. */
function luminance(color: string): number {
  const channels = [1, 3, 5].map((start) => parseInt(color.slice(start, start + 2), 16) / 255)
    .map((value) => (value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4));
  return 0.2126 * channels[0]! + 0.7152 * channels[1]! + 0.0722 * channels[2]!;
}

/** WCAG 2 contrast ratio of two #rrggbb colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** The text colour of the two that contrasts more with `background` (#rrggbb): readable on any brand colour. */
export function textColorOn(background: string): string {
  return contrastRatio(background, LIGHT_TEXT) >= contrastRatio(background, DARK_TEXT) ? LIGHT_TEXT : DARK_TEXT;
}

/** The accent of an organization without a brand colour: its name and the e-mail's button. */
export const DEFAULT_ACCENT = '#1d4ed8';

/** The logo's box in an e-mail's header (CSS pixels): a wide logo is at most this wide, a tall one this high. */
export const LOGO_MAX_WIDTH = 240;
export const LOGO_MAX_HEIGHT = 64;

/** The width (CSS pixels) a logo of `width` × `height` pixels is shown at in the header's box, never enlarged. */
export function logoDisplayWidth(width: number, height: number): number {
  return Math.max(1, Math.min(LOGO_MAX_WIDTH, width, Math.round((LOGO_MAX_HEIGHT * width) / height)));
}
