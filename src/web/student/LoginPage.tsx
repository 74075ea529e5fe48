import {
  Anchor,
  Box,
  Button,
  Center,
  LoadingOverlay,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import type { MessageResponse } from '../../contract/auth';
import { studentToasts } from '../../contract/messages';
import { api, messageOf } from '../api/client';
import { queryKeys, useAuthCheck } from '../api/session';
import { useReplaceNavigate } from '../app/navigation';
import { productName } from '../app/product';
import { Logo } from '../ui/Logo';
import { toast } from '../ui/toast';

/** Student sign-in (/): username or e-mail and password; first sign-in continues to the reset. */
export default function LoginPage() {
  const navigate = useReplaceNavigate();
  const queryClient = useQueryClient();
  const session = useAuthCheck({ poll: false });
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');

  // Already signed in: straight on (SPEC.md section 2). Only a fresh answer counts, not a cached one.
  useEffect(() => {
    const s = session.data;
    if (session.isFetchedAfterMount && s?.valid && s.role === 'student') {
      navigate(s.firstlogin ? '/reset-password' : '/dashboard');
    }
  }, [session.data, session.isFetchedAfterMount, navigate]);

  const signIn = useMutation({
    mutationFn: (body: { username: string; password: string }) =>
      api.post<MessageResponse>('/api/signin', body),
    onSuccess: async ({ message }) => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.authCheck });
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

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!signIn.isPending) signIn.mutate({ username, password });
  };

  return (
    <Center mih="100dvh" p="md" bg="gray.0">
      <LoadingOverlay visible={signIn.isPending} pos="fixed" zIndex={1000} overlayProps={{ blur: 1 }} />
      <Paper withBorder shadow="md" radius="md" p={{ base: 'lg', xs: 'xl' }} w="100%" maw={420}>
        <form onSubmit={submit} noValidate>
          <Stack>
            <Box mx="auto">
              <Logo size={48} withName={false} />
            </Box>
            <div>
              <Title order={1} ta="center" size="h2">
                {productName()}
              </Title>
              <Text c="dimmed" size="sm" ta="center" mt={4}>
                Sign in to watch your course videos.
              </Text>
            </div>
            <TextInput
              label="Username or e-mail"
              autoComplete="username"
              autoFocus
              value={username}
              onChange={(event) => setUsername(event.currentTarget.value)}
            />
            <PasswordInput
              label="Password"
              autoComplete="current-password"
              visibilityToggleButtonProps={{ 'aria-label': 'Show or hide password' }}
              value={password}
              onChange={(event) => setPassword(event.currentTarget.value)}
            />
            <Button type="submit" color="red" fullWidth disabled={signIn.isPending}>
              {signIn.isPending ? 'Please wait...' : 'Login'}
            </Button>
            <Anchor component={Link} to="/reset-password?forgot=1" replace size="sm" ta="center">
              Forgot password?
            </Anchor>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
