import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { adminToasts } from '../../../contract/messages';
import { adminApi } from '../../api/admin';
import { messageOf } from '../../api/client';
import { sessionKeys, useAdminCheck } from '../../api/session';
import { useReplaceNavigate } from '../../app/navigation';
import { productName } from '../../app/product';
import { SignInCard } from '../../ui/SignInCard';
import { toast } from '../../ui/toast';

/** /adminlogin: no client rules; success is judged by the server's message containing 'successful' (SPEC.md section 5). */
export default function AdminLoginPage() {
  const navigate = useReplaceNavigate();
  const queryClient = useQueryClient();
  const session = useAdminCheck();

  // Already signed in as an admin: straight to the dashboard (a fresh answer only).
  useEffect(() => {
    if (session.isFetchedAfterMount && session.data?.valid) navigate('/admindashboard');
  }, [session.data, session.isFetchedAfterMount, navigate]);

  const login = useMutation({
    mutationFn: adminApi.login,
    onSuccess: ({ message }) => {
      if (!message?.includes('successful')) {
        toast.error(message || adminToasts.loginFailed);
        return;
      }
      toast.success(message);
      queryClient.setQueryData(sessionKeys.adminCheck, { valid: true });
      navigate('/admindashboard');
    },
    onError: (error) => toast.error(messageOf(error, adminToasts.loginFailed)),
  });

  return (
    <SignInCard
      title={`${productName()} admin`}
      subtitle="Sign in to manage courses, videos and students."
      pending={login.isPending}
      onSubmit={(credentials) => login.mutate(credentials)}
    />
  );
}
