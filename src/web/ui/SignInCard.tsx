import { Box, Button, Center, LoadingOverlay, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Logo } from './Logo';
import { PasswordField } from './PasswordField';

export interface Credentials {
  username: string;
  password: string;
}

/**
 * The centred sign-in card of both logins (/ and /adminlogin): username or e-mail, password with a
 * show/hide toggle, and Login. No client rules: the server judges the credentials (SPEC.md section 5).
 */
export function SignInCard({
  title,
  subtitle,
  pending,
  onSubmit,
  children,
}: {
  title: string;
  subtitle: string;
  pending: boolean;
  onSubmit(credentials: Credentials): void;
  /** Below the button (the student login's "Forgot password?"). */
  children?: ReactNode;
}) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!pending) onSubmit({ username, password });
  };

  return (
    <AuthCard title={title} subtitle={subtitle} pending={pending} width={420}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <LoginInput value={username} onChange={setUsername} />
          <PasswordField
            label="Password"
            autoComplete="current-password"
            value={password}
            onValue={setPassword}
          />
          <Button type="submit" color="red" fullWidth disabled={pending}>
            {pending ? 'Please wait...' : 'Login'}
          </Button>
          {children}
        </Stack>
      </form>
    </AuthCard>
  );
}

/** The centred card of the sign-in screens and the admin's sign-in steps: logo, title, subtitle, content. */
export function AuthCard({
  title,
  subtitle,
  pending,
  width,
  children,
}: {
  title: string;
  subtitle: string;
  pending: boolean;
  width: number;
  children: ReactNode;
}) {
  return (
    <Center mih="100dvh" p="md" bg="gray.0">
      <LoadingOverlay visible={pending} pos="fixed" zIndex={1000} overlayProps={{ blur: 1 }} />
      <Paper withBorder shadow="md" radius="md" p={{ base: 'lg', xs: 'xl' }} w="100%" maw={width}>
        <Stack>
          <Box mx="auto">
            <Logo size={48} withName={false} />
          </Box>
          <div>
            <Title order={1} ta="center" size="h2">
              {title}
            </Title>
            <Text c="dimmed" size="sm" ta="center" mt={4}>
              {subtitle}
            </Text>
          </div>
          {children}
        </Stack>
      </Paper>
    </Center>
  );
}

/** The username-or-e-mail field of the sign-in and reset screens. */
export function LoginInput({ value, onChange }: { value: string; onChange(value: string): void }) {
  return (
    <TextInput
      label="Username or e-mail"
      autoComplete="username"
      autoFocus
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
    />
  );
}
