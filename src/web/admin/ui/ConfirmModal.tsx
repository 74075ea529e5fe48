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

/**
 * ConfirmModal for removing one thing: open while `target` is set, red, and the action hands the
 * target to `mutation`. `children` says what happens to it.
 */
export function ConfirmRemoveModal<T>({
  target,
  title,
  action = 'Remove',
  mutation,
  onClose,
  children,
}: {
  target: T | null;
  title: string;
  action?: string;
  mutation: { isPending: boolean; mutate(target: NoInfer<T>): void };
  onClose(): void;
  children(target: T): ReactNode;
}) {
  return (
    <ConfirmModal
      opened={target !== null}
      title={title}
      action={action}
      color="red"
      pending={mutation.isPending}
      onConfirm={() => target !== null && mutation.mutate(target)}
      onClose={onClose}
    >
      {target !== null && children(target)}
    </ConfirmModal>
  );
}
