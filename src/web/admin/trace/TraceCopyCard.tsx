import { Alert, Button, Group, Paper, Select, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconFingerprint, IconInfoCircle, IconMovie } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import {
  MAX_TRACE_UPLOAD_BYTES,
  TRACE_UPLOAD_ACCEPT,
  traceRunMessages,
  traceUnderWay,
  type TraceRunsResponse,
} from '../../../contract/trace-runs';
import { reasonOf } from '../../api/client';
import { useTraceRun, useTraceRuns, useTraceUpload, type UploadState } from '../../api/trace-runs';
import { FilePicker } from '../ui/FilePicker';
import { formatBytes } from '../ui/format';
import { LoadError } from '../ui/LoadError';
import { Meter } from '../ui/Meter';
import { TraceRunState } from './TraceRunState';

const percentOf = ({ sent, total }: UploadState) =>
  total > 0 ? Math.min(100, Math.round((sent / total) * 100)) : 0;

/** Why nothing can be traced yet, when no video is marked. */
function NothingMarked({ marksOn }: { marksOn: boolean }) {
  return (
    <Alert
      color="gray"
      variant="light"
      icon={<IconInfoCircle size={18} aria-hidden="true" />}
      title="Nothing to trace to yet"
    >
      {marksOn
        ? 'No video is marked yet: videos are marked as they are packaged, a few minutes after their upload. A copy can be traced once one is.'
        : 'Forensic marks are off (FORENSIC_MARKS) and no video is marked, so a downloaded copy cannot name anyone. Turn FORENSIC_MARKS on and mark the videos (npm run cli -- media:mark); docs/FORENSIC.md says how.'}
    </Alert>
  );
}

/** The file, the video it may be from, and the button. */
function TraceForm({
  data,
  busy,
  onTrace,
}: {
  data: TraceRunsResponse;
  busy: boolean;
  onTrace(file: File, videoId: string | null): void;
}) {
  const [file, setFile] = useState<File | null>(null);
  const [videoId, setVideoId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = !file
      ? traceRunMessages.fileMissing
      : file.size > data.maxBytes
        ? traceRunMessages.tooLarge
        : null;
    setError(problem);
    if (file && !problem) onTrace(file, videoId);
  };
  return (
    <form noValidate onSubmit={submit}>
      <Stack gap="sm">
        <FilePicker
          icon={IconMovie}
          label="Leaked video file"
          description={`MP4, TS, MKV, MOV or WebM, up to ${MAX_TRACE_UPLOAD_BYTES / 1024 ** 3} GB; at least 1.7 minutes of a marked video.`}
          placeholder="Choose a file"
          accept={TRACE_UPLOAD_ACCEPT}
          value={file}
          onChange={(picked) => {
            setFile(picked);
            setError(null);
          }}
          error={error}
          disabled={busy}
        />
        <Select
          label="Video (optional)"
          description="Pick the lecture if you know it; otherwise the copy is compared with every marked video."
          placeholder="Any marked video"
          data={data.markedVideos.map((v) => ({ value: v.id, label: v.title }))}
          value={videoId}
          onChange={setVideoId}
          clearable
          clearButtonProps={{ 'aria-label': 'Clear the video' }}
          searchable
          nothingFoundMessage="No marked video by that name"
          disabled={busy}
        />
        <Group>
          <Button type="submit" loading={busy} leftSection={<IconFingerprint size={16} aria-hidden="true" />}>
            Trace the copy
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * "Trace a downloaded copy": an admin uploads a leaked file (with its progress), then follows its
 * trace (the run polled while it waits and decodes) to the answer: the session(s) and student(s)
 * it names, or why nobody.
 */
export function TraceCopyCard() {
  const runs = useTraceRuns();
  const send = useTraceUpload();
  const [runId, setRunId] = useState<string | null>(null);
  const traced = useTraceRun(runId);
  const run = traced.data?.run;
  const busy = send.isPending || (run !== undefined && traceUnderWay(run));

  const trace = (file: File, videoId: string | null) => {
    setRunId(null);
    send.mutate({ file, videoId }, { onSuccess: ({ run: started }) => setRunId(started.id) });
  };

  let body;
  if (runs.isPending) body = <Skeleton height={150} radius="sm" aria-label="Loading" />;
  else if (runs.isError)
    body = <LoadError title={traceRunMessages.loadFailed} onRetry={() => void runs.refetch()} />;
  else if (!runs.data.markedVideos.length) body = <NothingMarked marksOn={runs.data.marksOn} />;
  else body = <TraceForm data={runs.data} busy={busy} onTrace={trace} />;

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="trace-copy">
      <Title order={2} size="h4" id="trace-copy">
        Trace a downloaded copy
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        Every playback of a marked video gets its own invisible pattern: a downloaded or re-encoded copy names
        the session it came from. Decoding takes a few minutes; you may leave the page, the trace carries on.
      </Text>
      {body}
      <Stack gap="sm" mt={send.sending || send.isError || run ? 'md' : 0} aria-live="polite">
        {send.sending && (
          <div>
            <Meter
              label="Upload progress"
              percent={percentOf(send.sending)}
              text={`${percentOf(send.sending)}% uploaded`}
            />
            <Text size="sm" mt={4}>
              Uploading {formatBytes(send.sending.sent)} of {formatBytes(send.sending.total)} (
              {percentOf(send.sending)}%)
            </Text>
          </div>
        )}
        {send.isError && (
          <Alert color="red" variant="light" title={traceRunMessages.uploadFailed}>
            {reasonOf(send.error) ?? 'Please try again.'}
          </Alert>
        )}
        {run && <TraceRunState run={run} />}
      </Stack>
    </Paper>
  );
}
