import {
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
import { adminToasts } from '../../../contract/messages';
import { adminApi } from '../../api/admin';
import { messageOf } from '../../api/client';
import { queryKeys, useAdminCheck } from '../../api/session';
import { useReplaceNavigate } from '../../app/navigation';
import { productName } from '../../app/product';
import { Logo } from '../../ui/Logo';
import { toast } from '../../ui/toast';

/** /adminlogin: no client rules; success is judged by the server's message containing 'successful' (SPEC.md section 5). */
export default function AdminLoginPage() {
  const navigate = useReplaceNavigate();
  const queryClient = useQueryClient();
  const session = useAdminCheck();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');

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
      queryClient.setQueryData(queryKeys.adminCheck, { valid: true });
      navigate('/admindashboard');
    },
    onError: (error) => toast.error(messageOf(error, adminToasts.loginFailed)),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!login.isPending) login.mutate({ username, password });
  };

  return (
    <Center mih="100dvh" p="md" bg="gray.0">
      <LoadingOverlay visible={login.isPending} pos="fixed" zIndex={1000} overlayProps={{ blur: 1 }} />
      <Paper withBorder shadow="md" radius="md" p={{ base: 'lg', xs: 'xl' }} w="100%" maw={420}>
        <form onSubmit={submit} noValidate>
          <Stack>
            <Box mx="auto">
              <Logo size={48} withName={false} />
            </Box>
            <Stack gap={4} align="center">
              <Title order={1} ta="center" size="h2">
                {productName()} admin
              </Title>
              <Text c="dimmed" size="sm" ta="center">
                Sign in to manage courses, videos and students.
              </Text>
            </Stack>
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
            <Button type="submit" color="red" fullWidth disabled={login.isPending}>
              {login.isPending ? 'Please wait...' : 'Login'}
            </Button>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
