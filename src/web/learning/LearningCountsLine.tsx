import { useQuery } from '@tanstack/react-query';
import { fetchVideoLearningCounts } from '../api/learning';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** In the delete confirmation: how many students' notes and questions go with the video. */
export function LearningCountsLine({ videoId }: { videoId: string }) {
  const counts = useQuery({
    queryKey: ['learning', 'counts', videoId],
    queryFn: () => fetchVideoLearningCounts(videoId),
    staleTime: 0,
  });
  if (!counts.data || (counts.data.notes === 0 && counts.data.questions === 0)) return null;
  return (
    <>
      {' '}
      Students&apos; {plural(counts.data.notes, 'note', 'notes')} and{' '}
      {plural(counts.data.questions, 'question', 'questions')} on it are deleted too.
    </>
  );
}
