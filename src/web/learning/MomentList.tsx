import { Group, Text, UnstyledButton } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { formatMoment } from '../../contract/learning';
import { messageOf } from '../api/client';
import classes from './Learning.module.css';

/**
 * A lecture's notes or questions by time, as the learning tabs list them: the load failure, `empty`
 * once the list has loaded with nothing in it, else one row an item, led by its moment (a button that
 * seeks there). `children` draws the rest of the row; `below`, what opens under it.
 */
export function MomentList<T extends { _id: string; t: number }>({
  query,
  failure,
  empty,
  label,
  onSeek,
  children,
  below,
}: {
  query: UseQueryResult<T[]>;
  failure: string;
  empty: string;
  /** The list's accessible name. */
  label: string;
  onSeek(t: number): void;
  children(item: T): ReactNode;
  below?(item: T): ReactNode;
}) {
  const list = query.data ?? [];
  if (query.isError)
    return (
      <Text size="sm" c="red">
        {messageOf(query.error, failure)}
      </Text>
    );
  if (list.length === 0 && !query.isPending)
    return (
      <Text size="sm" c="dimmed">
        {empty}
      </Text>
    );
  return (
    <ul className={classes.list} aria-label={label}>
      {list.map((item) => (
        <li key={item._id} className={classes.item}>
          <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
            <UnstyledButton
              onClick={() => onSeek(item.t)}
              aria-label={`Go to ${formatMoment(item.t)}`}
              className={classes.moment}
              c="blue"
            >
              {formatMoment(item.t)}
            </UnstyledButton>
            {children(item)}
          </Group>
          {below?.(item)}
        </li>
      ))}
    </ul>
  );
}
