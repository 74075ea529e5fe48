import {
  createTheme,
  defaultVariantColorsResolver,
  type CSSVariablesResolver,
  type VariantColorsResolver,
} from '@mantine/core';

/** Hues whose darkest shade is still too light for text on their own tint. */
const BRIGHT = new Set(['yellow', 'orange', 'lime']);

/**
 * Light and outline badges and buttons: text in shade 9 (a dark brown for the bright hues) on shade
 * 0, at least 4.5:1 (WCAG AA), where Mantine's shade 6 on shade 1 is about 3:1.
 */
const variantColorResolver: VariantColorsResolver = (input) => {
  const colors = defaultVariantColorsResolver(input);
  const named = input.color ?? input.theme.primaryColor;
  if ((input.variant === 'light' || input.variant === 'outline') && named in input.theme.colors) {
    const text = BRIGHT.has(named) ? '#5c3a00' : `var(--mantine-color-${named}-9)`;
    return {
      ...colors,
      color: text,
      background: input.variant === 'light' ? `var(--mantine-color-${named}-0)` : colors.background,
      hover: input.variant === 'light' ? `var(--mantine-color-${named}-1)` : colors.hover,
    };
  }
  return colors;
};

export const theme = createTheme({
  primaryColor: 'red',
  // red.9 on white or gray.0 (and white on it) is over 5:1: filled buttons and links meet WCAG AA.
  primaryShade: { light: 9, dark: 9 },
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  variantColorResolver,
  components: {
    // Mantine's close button has no name of its own: screen readers would say only "button".
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
    Drawer: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
    // The toasts' close button too (axe: button-name, when a scan meets a toast still showing).
    Notification: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
  },
});

/** Dimmed and placeholder text one step darker than Mantine's (gray.6 is 3.3:1 on white; gray.7 is 7:1). */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-placeholder': 'var(--mantine-color-gray-7)',
  },
  dark: {},
});
