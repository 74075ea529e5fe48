import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';

/**
 * A mutation that refreshes the queries under each of `keys` once it succeeds (the lists it
 * changed): the actions of a list (add, edit, delete) are one of these each, on the list's key.
 */
export function useRefreshing<I, O>(keys: readonly QueryKey[], mutationFn: (input: I) => Promise<O>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => Promise.all(keys.map((queryKey) => client.invalidateQueries({ queryKey }))),
  });
}
