import { Button, Center, Code, Stack, Text, Title } from '@mantine/core';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { ChunkLoadError } from './lazy-route';

/** The router's fallback for anything a page throws (SPEC.md section 2). */
export function ErrorPage() {
  const error = useRouteError();
  const chunk = error instanceof ChunkLoadError;
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : String(error);
  return (
    <Center mih="100dvh" p="md">
      <Stack align="center" maw={520} ta="center">
        <Title order={1}>Unexpected Application Error!</Title>
        <Text c="dimmed">
          {chunk
            ? 'Part of the application failed to load (chunk load failure). Check your connection and reload the page.'
            : 'Something went wrong while showing this page.'}
        </Text>
        <Code block>{detail}</Code>
        <Button color="red" onClick={() => window.location.reload()}>
          Reload
        </Button>
      </Stack>
    </Center>
  );
}
