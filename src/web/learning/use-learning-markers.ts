import { useMemo } from 'react';
import { useNotes, useQuestions } from '../api/learning';
import { formatClock } from '../player/format';
import type { SeekMarker } from '../player/PlayerControls';

/**
 * The seek bar's markers of a lecture: the student's own notes and the lecture's questions, named
 * for screen readers ("Note at 01:05", "Question at 01:05: Why?"). They follow the notes' and
 * questions' queries, so adding or deleting one (which invalidates them) moves the markers too.
 */
export function useLearningMarkers(videoId: string): readonly SeekMarker[] {
  const notes = useNotes(videoId);
  const questions = useQuestions(videoId);
  return useMemo(() => {
    const marks: SeekMarker[] = [
      ...(notes.data ?? []).map((note) => ({
        seconds: note.t,
        kind: 'note' as const,
        label: `Note at ${formatClock(note.t)}`,
      })),
      ...(questions.data ?? []).map((question) => ({
        seconds: question.t,
        kind: 'question' as const,
        label: `Question at ${formatClock(question.t)}: ${question.title}`,
      })),
    ];
    return marks.sort((a, b) => a.seconds - b.seconds);
  }, [notes.data, questions.data]);
}
