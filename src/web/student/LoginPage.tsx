import { Anchor } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { studentToasts } from '../../contract/messages';
import { messageOf } from '../api/client';
import { sessionKeys, useAuthCheck } from '../api/session';
import { signIn as requestSignIn } from '../api/student';
import { useReplaceNavigate } from '../session/navigation';
import { productName } from '../ui/product';
import { SignInCard, type Credentials } from '../ui/SignInCard';
import { toast } from '../ui/toast';

/** Student sign-in (/): username or e-mail and password; first sign-in continues to the reset. */
export default function LoginPage() {
  const navigate = useReplaceNavigate();
  const queryClient = useQueryClient();
  const session = useAuthCheck({ poll: false });

  // Already signed in: straight on (SPEC.md section 2). Only a fresh answer counts, not a cached one.
  useEffect(() => {
    const s = session.data;
    if (session.isFetchedAfterMount && s?.valid && s.role === 'student') {
      navigate(s.firstlogin ? '/reset-password' : '/dashboard');
    }
  }, [session.data, session.isFetchedAfterMount, navigate]);

  const signIn = useMutation({
    mutationFn: (body: Credentials) => requestSignIn(body),
    onSuccess: async ({ message }) => {
      await queryClient.invalidateQueries({ queryKey: sessionKeys.authCheck });
      if (message?.includes('First Sign-in')) {
        toast.info(studentToasts.firstLogin);
        if (/could not/i.test(message)) toast.error(message);
        navigate('/reset-password');
      } else {
        toast.success(message || studentToasts.loginSuccess);
        navigate('/dashboard');
      }
    },
    onError: (error) => toast.error(messageOf(error, studentToasts.loginFailed)),
  });

  return (
    <SignInCard
      title={productName()}
      subtitle="Sign in to watch your course videos."
      pending={signIn.isPending}
      onSubmit={(credentials) => signIn.mutate(credentials)}
    >
      <Anchor component={Link} to="/reset-password?forgot=1" replace size="sm" ta="center">
        Forgot password?
      </Anchor>
    </SignInCard>
  );
}
