import { Anchor, Center, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

export default function NotFoundPage() {
  return (
    <Center mih="70dvh" p="md">
      <Stack align="center" ta="center">
        <Title order={1}>Page not found</Title>
        <Text c="dimmed">The address may be mistyped, or the page has moved.</Text>
        <Anchor component={Link} to="/" replace>
          Go to the sign-in page
        </Anchor>
      </Stack>
    </Center>
  );
}
