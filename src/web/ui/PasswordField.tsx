import { PasswordInput, type PasswordInputProps } from '@mantine/core';

/**
 * A password input that hands back its text, with the show/hide button named after the field
 * ("Show or hide new password" for "New password").
 */
export function PasswordField({
  label,
  onValue,
  ...props
}: Omit<PasswordInputProps, 'label' | 'onChange' | 'visibilityToggleButtonProps'> & {
  label: string;
  onValue(value: string): void;
}) {
  return (
    <PasswordInput
      label={label}
      visibilityToggleButtonProps={{ 'aria-label': `Show or hide ${label.toLowerCase()}` }}
      onChange={(event) => onValue(event.currentTarget.value)}
      {...props}
    />
  );
}
