import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { studentToasts } from '../../contract/messages';
import { messageOf } from '../api/client';
import { sessionKeys } from '../api/session';
import { signOut } from '../api/student';
import { toast } from '../ui/toast';

/**
 * Logout: the toast, then the sign-in page. Cached data is dropped only once the signed-in page is
 * gone, so its session gate does not read the change as an expired session.
 */
export function useLogout() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signOut,
    onSuccess: async () => {
      toast.success(studentToasts.logoutSuccess);
      await navigate('/', { replace: true });
      queryClient.removeQueries({ queryKey: ['student'] });
      queryClient.setQueryData(sessionKeys.authCheck, { valid: false });
    },
    onError: (error) => toast.error(messageOf(error, studentToasts.logoutFailed)),
  });
}
