import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AttemptAnswer, CheckpointBody, CheckpointPatchBody } from '../../contract/checkpoints';
import { call, calling } from './client';
import { useRefreshing } from './refreshing';

/** Query keys of checkpoints and completion. */
export const checkpointKeys = {
  viewer: (videoId: string) => ['checkpoints', 'viewer', videoId] as const,
  staff: (videoId: string) => ['checkpoints', 'staff', videoId] as const,
  completion: (courseId: string) => ['checkpoints', 'completion', courseId] as const,
};

/** GET /api/videos/:videoId/checkpoints: the lecture's checkpoints as its viewer sees them (no answers). */
export function useVideoCheckpoints(videoId: string) {
  return useQuery({
    queryKey: checkpointKeys.viewer(videoId),
    queryFn: calling('GET /api/videos/:videoId/checkpoints', { params: { videoId } }),
    retry: 1,
  });
}

/** POST /api/checkpoints/:checkpointId/attempts; a pass refreshes the lecture's list and the course's completion. */
export function useCheckpointAttempt(videoId: string, courseId?: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ checkpointId, answer }: { checkpointId: string; answer: AttemptAnswer }) =>
      call('POST /api/checkpoints/:checkpointId/attempts', { params: { checkpointId }, body: { answer } }),
    onSuccess: (result) => {
      if (!result.correct) return;
      void client.invalidateQueries({ queryKey: checkpointKeys.viewer(videoId) });
      if (courseId) void client.invalidateQueries({ queryKey: checkpointKeys.completion(courseId) });
    },
  });
}

/** GET /api/courses/:courseId/completion: lectures complete (90% watched, required checkpoints passed). */
export function useCourseCompletion(courseId: string, enabled = true) {
  return useQuery({
    queryKey: checkpointKeys.completion(courseId),
    queryFn: calling('GET /api/courses/:courseId/completion', { params: { courseId } }),
    retry: false,
    enabled,
  });
}

/** Staff: a lecture's checkpoints with their answers. */
export function useStaffCheckpoints(videoId: string) {
  return useQuery({
    queryKey: checkpointKeys.staff(videoId),
    queryFn: calling(
      'GET /api/admin/videos/:videoId/checkpoints',
      { params: { videoId } },
      (r) => r.checkpoints,
    ),
    retry: false,
  });
}

/** Staff: placing, changing and deleting checkpoints; each refreshes the lecture's list. */
export function useCheckpointActions(videoId: string) {
  const list = [checkpointKeys.staff(videoId)];
  return {
    add: useRefreshing(list, (body: CheckpointBody) =>
      call('POST /api/admin/videos/:videoId/checkpoints', { params: { videoId }, body }),
    ),
    edit: useRefreshing(list, ({ checkpointId, ...body }: CheckpointPatchBody & { checkpointId: string }) =>
      call('PATCH /api/admin/checkpoints/:checkpointId', { params: { checkpointId }, body }),
    ),
    remove: useRefreshing(list, (checkpointId: string) =>
      call('DELETE /api/admin/checkpoints/:checkpointId', { params: { checkpointId } }),
    ),
  };
}
