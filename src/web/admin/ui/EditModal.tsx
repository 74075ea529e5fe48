import { Modal } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { Fragment, type ComponentType, type ReactNode } from 'react';

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

/** What a form in an Edit modal gets: the item, and what to call once it is saved or cancelled. */
export interface EditFormProps<T> {
  item: T;
  onDone(): void;
}

/** The Edit modal of one kind of item (`<EditCourseModal item={editing} onClose={…} />`): `Form` edits it. */
export function editModalOf<T extends { _id: string }>(title: string, Form: ComponentType<EditFormProps<T>>) {
  return function Edit({ item, onClose }: { item: T | null; onClose(): void }) {
    return (
      <EditModal title={title} item={item} onClose={onClose}>
        {(editing) => <Form item={editing} onDone={onClose} />}
      </EditModal>
    );
  };
}
