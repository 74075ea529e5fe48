import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import type { MessageResponse } from '../../contract/auth';
import { studentToasts } from '../../contract/messages';
import { api, messageOf } from '../api/client';
import { queryKeys } from '../api/session';
import { toast } from '../ui/toast';

/**
 * Logout: the toast, then the sign-in page. Cached data is dropped only once the signed-in page is
 * gone, so its session gate does not read the change as an expired session.
 */
export function useLogout() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<MessageResponse>('/api/logout'),
    onSuccess: async () => {
      toast.success(studentToasts.logoutSuccess);
      await navigate('/', { replace: true });
      queryClient.removeQueries({ queryKey: ['student'] });
      queryClient.setQueryData(queryKeys.authCheck, { valid: false });
    },
    onError: (error) => toast.error(messageOf(error, studentToasts.logoutFailed)),
  });
}
