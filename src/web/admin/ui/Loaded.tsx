import type { UseQueryResult } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { toastOnce } from '../../ui/toast';
import { LoadError } from './LoadError';

/**
 * What every admin list shows around its data: `loading` (a skeleton) until the first answer, and on
 * failure the spec's message twice, once as a toast and once in place with Try again (SPEC.md section 8).
 */
export function Loaded<T>({
  query,
  failure,
  loading,
  children,
}: {
  query: UseQueryResult<T>;
  failure: string;
  loading: ReactNode;
  children(data: T): ReactNode;
}) {
  useEffect(() => {
    if (query.isError) toastOnce('error', failure);
  }, [query.isError, failure]);

  if (query.isPending) return loading;
  if (query.isError) return <LoadError title={failure} onRetry={() => void query.refetch()} />;
  return children(query.data);
}
