import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { adminKeys } from '../../api/admin';
import { messageOf, reasonOf } from '../../api/client';
import { toast } from '../../ui/toast';

export interface AdminMutationOptions<T> {
  /** The success toast: the server's message when it gave one, else this (SPEC.md section 8). */
  success: string | ((answer: T) => string);
  /** The failure toast, in the catalogue's words (SPEC.md section 8). */
  failure: string;
  /** The few toasts where the spec prefers the server's words to `failure` (video update). */
  serverWords?: boolean;
  /** Closes the form or dialog. */
  onDone(answer: T): void;
  /** Cached admin data this write changes (default: all of it); false for none. */
  refresh?: readonly unknown[] | false;
}

/**
 * An admin write as every screen does it: toast the outcome, close the form, refetch what it
 * changed. `reason` is the server's reason for the last refusal, for a form to show beside its
 * fields (ServerReason) while the toast keeps the catalogue's text.
 */
export function useAdminMutation<V, T extends { message?: string }>(
  mutationFn: (variables: V) => Promise<T>,
  { success, failure, serverWords = false, onDone, refresh = adminKeys.all }: AdminMutationOptions<T>,
) {
  const queryClient = useQueryClient();
  const [reason, setReason] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn,
    onSuccess: async (answer) => {
      toast.success(typeof success === 'function' ? success(answer) : answer.message || success);
      onDone(answer);
      if (refresh) await queryClient.invalidateQueries({ queryKey: refresh });
    },
    onError: (error) => {
      toast.error(serverWords ? messageOf(error, failure) : failure);
      setReason(reasonOf(error));
    },
  });
  return { ...mutation, reason };
}

/**
 * An admin write on one item the admin picked from a list and then confirms in a dialog (remove,
 * reissue, …): `choose(item)` opens the dialog, `target` is the item it is about (null: closed),
 * `close()` shuts it, and a success closes it too.
 */
export function useChosenMutation<V, T extends { message?: string }>(
  mutationFn: (variables: V) => Promise<T>,
  options: Omit<AdminMutationOptions<T>, 'onDone'>,
) {
  const [target, setTarget] = useState<V | null>(null);
  const close = () => setTarget(null);
  const mutation = useAdminMutation(mutationFn, { ...options, onDone: close });
  return { ...mutation, target, choose: setTarget, close };
}
