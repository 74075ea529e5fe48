import { Button, Group } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * The right-aligned pair that ends every admin form and dialog: a quiet Cancel (or Clear) that is
 * locked while the request runs, and the main action with its spinner. Without `onConfirm` the main
 * action submits the surrounding form, so Enter works as well.
 */
export function FormActions({
  label,
  pending,
  onCancel,
  onConfirm,
  cancelLabel = 'Cancel',
  color,
  disabled,
  focusCancel,
}: {
  label: ReactNode;
  pending: boolean;
  onCancel(): void;
  onConfirm?(): void;
  cancelLabel?: string;
  color?: string;
  disabled?: boolean;
  /** Destructive confirmations start on Cancel, so Enter does not delete by accident. */
  focusCancel?: boolean;
}) {
  return (
    <Group justify="flex-end">
      <Button
        type="button"
        variant="default"
        onClick={onCancel}
        disabled={pending}
        data-autofocus={focusCancel || undefined}
      >
        {cancelLabel}
      </Button>
      <Button
        type={onConfirm ? 'button' : 'submit'}
        onClick={onConfirm}
        color={color}
        loading={pending}
        disabled={disabled}
      >
        {label}
      </Button>
    </Group>
  );
}
