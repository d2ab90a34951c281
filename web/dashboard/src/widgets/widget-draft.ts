/**
 * A widget as its form edits it: name, fallback language, units, colours and allowed origins — read from a widget's
 * row, and written back with the settings the form does not edit (e.g. `display_currency`) kept as they were.
 */
import type { Json } from '../../../../schema/database.types.js';

/** The colours the widget reads from its settings (docs/widget.md), each a `#rrggbb` code or unset. */
export const COLOR_SETTINGS = ['primary_color', 'background_color', 'text_color'] as const;
export type ColorSetting = (typeof COLOR_SETTINGS)[number];

/** The languages the widget speaks: the one it falls back to for a visitor whose language it does not. */
export const WIDGET_LANGUAGES = ['en', 'nl', 'de'] as const;

export type WidgetSettings = { [key: string]: Json | undefined };

export interface WidgetDraft {
  name: string;
  language: string;
  unitIds: string[];
  allowedOrigins: string[];
  /** The whole settings object: the colours set by the form, the rest as read. */
  settings: WidgetSettings;
}

function settingsOf(value: Json): WidgetSettings {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {};
}

export const emptyDraft = (): WidgetDraft => ({ name: '', language: 'en', unitIds: [], allowedOrigins: [], settings: {} });

/** What a draft is made from: a widget's row with its listings (`loadWidget`). */
export interface WidgetFields {
  name: string;
  language: string;
  settings: Json;
  allowed_origins: string[];
  widget_listings: { product_id: string; order: number }[];
}

export function draftOf(widget: WidgetFields): WidgetDraft {
  return {
    name: widget.name,
    language: widget.language,
    unitIds: [...widget.widget_listings].sort((a, b) => a.order - b.order).map((listing) => listing.product_id),
    allowedOrigins: widget.allowed_origins,
    settings: settingsOf(widget.settings),
  };
}

export function colorOf(settings: WidgetSettings, setting: ColorSetting): string {
  const value = settings[setting];
  return typeof value === 'string' ? value : '';
}

/** The settings with one colour set, or left out when emptied (the widget's own colour then). */
export function withColor(settings: WidgetSettings, setting: ColorSetting, color: string): WidgetSettings {
  const rest = Object.fromEntries(Object.entries(settings).filter(([key]) => key !== setting));
  return color === '' ? rest : { ...rest, [setting]: color };
}

/**
 * An origin as browsers send it, from what a manager pastes: `https://www.Example.com/booking/` becomes
 * `https://www.example.com`. Anything that is not an http(s) address is kept as typed, for the database's check
 * to refuse with its reason.
 */
export function normalizeOrigin(typed: string): string {
  const trimmed = typed.trim();
  try {
    const url = new URL(trimmed);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : trimmed;
  } catch {
    return trimmed;
  }
}
