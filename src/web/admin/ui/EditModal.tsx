import { Modal } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { Fragment, type ReactNode } from 'react';

/** The Edit modal of an admin list: open while `item` is set, full screen on phones, one fresh form per item. */
export function EditModal<T extends { _id: string }>({
  title,
  item,
  onClose,
  children,
}: {
  title: string;
  item: T | null;
  onClose(): void;
  children(item: T): ReactNode;
}) {
  const phone = useMediaQuery('(max-width: 36em)');
  return (
    <Modal opened={item !== null} onClose={onClose} title={title} size="lg" fullScreen={phone}>
      {item && <Fragment key={item._id}>{children(item)}</Fragment>}
    </Modal>
  );
}
