import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { studentToasts } from '../../contract/messages';
import { adminApi, adminKeys } from '../api/admin';
import { messageOf } from '../api/client';
import { sessionKeys } from '../api/session';
import { toast } from '../ui/toast';

/**
 * Admin logout: the server's message, then the admin login. The cached session answer changes only
 * once the gated page is gone, so its gate does not read the logout as an expired session.
 */
export function useAdminLogout() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: adminApi.logout,
    onSuccess: async ({ message }) => {
      toast.success(message || studentToasts.logoutSuccess);
      await navigate('/adminlogin', { replace: true });
      queryClient.removeQueries({ queryKey: adminKeys.all });
      queryClient.setQueryData(sessionKeys.adminCheck, { valid: false });
    },
    onError: (error) => toast.error(messageOf(error, studentToasts.logoutFailed)),
  });
}
