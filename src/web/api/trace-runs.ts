import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { traceUnderWay, type TraceRunsResponse } from '../../contract/trace-runs';
import { call, calling, proveFactorFirst, upload } from './client';

/** Traces of downloaded copies (base /api/admin/trace-runs): the one query-key factory, the list, a run, the upload. */
export const traceRunKeys = {
  list: ['admin', 'trace-runs'] as const,
  run: (runId: string) => ['admin', 'trace-runs', runId] as const,
};

/** The recent runs, the marked videos to pick from, and whether marking is on. */
export const useTraceRuns = () =>
  useQuery({
    queryKey: traceRunKeys.list,
    queryFn: calling('GET /api/admin/trace-runs', {}),
  });

/** How often the screen asks again while a trace waits or runs. */
export const TRACE_POLL_MS = 1_000;

/** The run `runId` (none: nothing), polled until it is done or failed; then the list is loaded again. */
export function useTraceRun(runId: string | null) {
  const client = useQueryClient();
  const query = useQuery({
    queryKey: traceRunKeys.run(runId ?? ''),
    queryFn: ({ signal }) => call('GET /api/admin/trace-runs/:runId', { params: { runId: runId! }, signal }),
    enabled: runId !== null,
    refetchInterval: (q) => (q.state.data && !traceUnderWay(q.state.data.run) ? false : TRACE_POLL_MS),
    retry: 3,
  });
  const finished = query.data !== undefined && !traceUnderWay(query.data.run);
  useEffect(() => {
    if (finished) void client.invalidateQueries({ queryKey: traceRunKeys.list, exact: true });
  }, [finished, client]);
  return query;
}

/** Bytes of the file sent so far, while an upload is under way. */
export interface UploadState {
  sent: number;
  total: number;
}

/** Uploads a copy to trace (videoId optional), with the bytes sent as it goes; the new run joins the list. */
export function useTraceUpload() {
  const client = useQueryClient();
  const [sending, setSending] = useState<UploadState | null>(null);
  const mutation = useMutation({
    mutationFn: async ({ file, videoId }: { file: File; videoId: string | null }) => {
      await proveFactorFirst();
      const form = new FormData();
      // The video first: the server checks it before it reads the file.
      if (videoId) form.append('videoId', videoId);
      form.append('file', file, file.name);
      setSending({ sent: 0, total: file.size });
      return upload('POST /api/admin/trace-runs', {
        form,
        onUpload: (sent, total) => setSending({ sent, total: total || file.size }),
      });
    },
    onSuccess: ({ run }) => {
      client.setQueryData(traceRunKeys.run(run.id), { run });
      client.setQueryData<TraceRunsResponse>(
        traceRunKeys.list,
        (old) => old && { ...old, runs: [run, ...old.runs.filter((r) => r.id !== run.id)] },
      );
    },
    onSettled: () => setSending(null),
  });
  return { ...mutation, sending };
}
