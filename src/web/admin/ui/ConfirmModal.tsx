import { Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { FormActions } from './FormActions';

/** A question before a consequential action: what will happen, Cancel (focused, so Enter does nothing rash) and the action. */
export function ConfirmModal({
  opened,
  title,
  children,
  action,
  color,
  pending,
  onConfirm,
  onClose,
}: {
  opened: boolean;
  title: string;
  children: ReactNode;
  action: string;
  color?: string;
  pending: boolean;
  onConfirm(): void;
  onClose(): void;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      {opened && (
        <Stack>
          <Text size="sm">{children}</Text>
          <FormActions
            label={action}
            color={color}
            pending={pending}
            onCancel={onClose}
            onConfirm={onConfirm}
            focusCancel
          />
        </Stack>
      )}
    </Modal>
  );
}
