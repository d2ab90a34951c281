/**
 * Mantine's theme with contrast enough for WCAG AA (4.5:1 for text): the primary colour's darker shade behind the
 * white text of filled buttons; "dimmed" and placeholder text in gray 7 instead of gray 6 and 5 (3.3:1 and less);
 * alert text in the text colour (even shade 9 of green on green's light background is only about 4:1); the alert's
 * background and border still tell its kind; a field's error message (and red border) in red 9 instead of red 6
 * (3.3:1 on white; red 9 is about 5.4:1).
 */
import { Alert, createTheme, type CSSVariablesResolver } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: { light: 8, dark: 5 },
  components: {
    Alert: Alert.extend({
      vars: () => ({ root: { '--alert-color': 'var(--mantine-color-text)' } }),
    }),
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
