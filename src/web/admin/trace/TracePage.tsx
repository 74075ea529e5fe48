import { Alert, Button, Group, Paper, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { displayCode, normalizeCode, traceMessages, type TracedSession } from '../../../contract/playback';
import { call, messageOf } from '../../api/client';
import { DataTable } from '../ui/DataTable';
import { PageHeader } from '../ui/PageHeader';
import { Field, when } from './fields';
import { RecentTraces } from './RecentTraces';
import { TraceCopyCard } from './TraceCopyCard';

const videoOf = (s: TracedSession) => s.video?.title ?? 'Deleted video';
const courseOf = (s: TracedSession) => (s.course ? `${s.course.name} (${s.course.coursecode})` : 'No course');

/**
 * /admintrace: the code drawn on a leaked frame (or heard read out from a recording) names the
 * playback: who, which video, when, from which address and device, and their other sessions. Below
 * it, a downloaded copy is uploaded and traced by its invisible marks, and the recent traces listed.
 */
export default function TracePage() {
  const [input, setInput] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const trace = useMutation({
    mutationFn: (code: string) => call('GET /api/admin/trace/:code', { params: { code } }),
  });

  const submit = () => {
    const code = normalizeCode(input);
    setInvalid(code ? null : traceMessages.codeInvalid);
    if (code) trace.mutate(code);
  };

  const found = trace.data;
  return (
    <>
      <PageHeader
        title="Trace a leak"
        description="Type the code seen in a leaked screenshot or recording (e.g. 7K3M-Q9XD), or upload a downloaded copy: either names the playback it came from."
      />
      <Paper withBorder radius="md" p="md" component="section" aria-label="Look up a code">
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <Group align="flex-end" wrap="wrap">
            <TextInput
              label="Session code"
              placeholder="7K3M-Q9XD"
              value={input}
              onChange={(event) => setInput(event.currentTarget.value)}
              error={invalid}
              autoComplete="off"
              spellCheck={false}
              style={{ flex: '1 1 220px' }}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', letterSpacing: 1 } }}
            />
            <Button
              type="submit"
              loading={trace.isPending}
              leftSection={<IconSearch size={16} aria-hidden="true" />}
            >
              Trace
            </Button>
          </Group>
        </form>
      </Paper>

      <div aria-live="polite">
        {trace.isError && (
          <Alert color="red" mt="md" title={traceMessages.loadFailed}>
            {messageOf(trace.error, traceMessages.loadFailed)}
          </Alert>
        )}
        {found && (
          <Stack mt="md" gap="md">
            <Paper withBorder radius="md" p="md" component="section" aria-labelledby="trace-result">
              <Title order={2} size="h4" id="trace-result" mb="sm">
                Session {displayCode(found.session.code)}
              </Title>
              <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
                <Field label="Name" value={found.student.name} />
                <Field
                  label="Roll no"
                  value={found.student.rollno ?? (found.student.role === 'admin' ? 'Admin' : '—')}
                />
                <Field label="Username" value={found.student.username} />
                <Field label="Video" value={videoOf(found.session)} />
                <Field label="Course" value={courseOf(found.session)} />
                <Field label="Started" value={when(found.session.startedAt)} />
                <Field label="IP address" value={found.session.ip} />
                <Field label="Device (user agent)" value={found.session.userAgent || 'Unknown'} />
              </SimpleGrid>
            </Paper>
            <Paper withBorder radius="md" p="md" component="section" aria-labelledby="trace-nearby">
              <Title order={2} size="h4" id="trace-nearby" mb="sm">
                Other sessions of {found.student.name} within a day
              </Title>
              {found.nearby.length === 0 ? (
                <Text size="sm" c="dimmed">
                  None.
                </Text>
              ) : (
                <DataTable minWidth={720} columns={['Code', 'Started', 'Video', 'IP address', 'Device']}>
                  {found.nearby.map((s) => (
                    <Table.Tr key={s.code}>
                      <Table.Td ff="monospace">{displayCode(s.code)}</Table.Td>
                      <Table.Td>{when(s.startedAt)}</Table.Td>
                      <Table.Td>{videoOf(s)}</Table.Td>
                      <Table.Td>{s.ip}</Table.Td>
                      <Table.Td maw={280}>
                        <Text size="sm" lineClamp={1} title={s.userAgent}>
                          {s.userAgent}
                        </Text>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </DataTable>
              )}
            </Paper>
          </Stack>
        )}
      </div>

      <Stack mt="xl" gap="xl">
        <TraceCopyCard />
        <RecentTraces />
      </Stack>
    </>
  );
}
