/**
 * Mantine's theme with contrast enough for WCAG AA (4.5:1 for text): the primary colour's darker shade behind the
 * white text of filled buttons; "dimmed" and placeholder text in gray 7 instead of gray 6 and 5 (3.3:1 and less);
 * alert text in the text colour (even shade 9 of green on green's light background is only about 4:1); the alert's
 * background and border still tell its kind. The light variant (buttons, badges) writes its colour's shade 9 darkened
 * a quarter towards black on its tinted background (shade 6 is about 3:1; even green 9 only about 3.9:1); a field's
 * error message (and red border) is red 9 instead of red 6 (3.3:1 on white; red 9 is about 5.4:1).
 * A date picker's chosen dates are written in the reader's way ("30 november 2026", dayjs's localized `LL`), not
 * always in the American order.
 */
import { DatePickerInput } from '@mantine/dates';
import dayjs from 'dayjs';
import localizedFormat from 'dayjs/plugin/localizedFormat.js';
import { Alert, createTheme, defaultVariantColorsResolver, parseThemeColor, type CSSVariablesResolver, type VariantColorsResolver } from '@mantine/core';

dayjs.extend(localizedFormat);

const variantColorResolver: VariantColorsResolver = (input) => {
  const colors = defaultVariantColorsResolver(input);
  if (input.variant !== 'light') return colors;
  const parsed = parseThemeColor({ color: input.color ?? input.theme.primaryColor, theme: input.theme });
  return parsed.isThemeColor ? { ...colors, color: `color-mix(in srgb, var(--mantine-color-${parsed.color}-9), black 25%)` } : colors;
};

export const theme = createTheme({
  variantColorResolver,
  primaryColor: 'blue',
  primaryShade: { light: 8, dark: 5 },
  components: {
    Alert: Alert.extend({
      vars: () => ({ root: { '--alert-color': 'var(--mantine-color-text)' } }),
    }),
    DatePickerInput: DatePickerInput.extend({ defaultProps: { valueFormat: 'LL' } }),
  },
});

export const cssVariables: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)', '--mantine-color-placeholder': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
  },
  dark: {},
});
