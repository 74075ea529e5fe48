import { Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { lazy, Suspense, useEffect, useState } from 'react';
import { MAX_SEARCH_QUERY } from '../../contract/search-limits';
import { SearchInput } from '../ui/SearchInput';
import type { SearchBoxProps } from './SearchResults';

// The answer's code (the hits, their request, the snippet marks) loads at the first letter typed:
// the dashboard and the course page open with an empty box.
const SearchResults = lazy(() => import('./SearchResults'));

const DEBOUNCE_MS = 300;

/** `value` once it has stopped changing for `ms`. */
function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** Announced while the first answer, or the code that shows it, is on its way. */
const searching = (
  <Group gap="xs" role="status" aria-label="Searching">
    <Loader size="xs" />
    <Text size="sm">Searching…</Text>
  </Group>
);

/**
 * Search inside lectures (docs/SEARCH.md): results as the user types (debounced). A student's hits
 * link to the course page at that video and second; in `admin` mode every course is searched and
 * the hits are grouped by video. Loading, empty and error states are announced.
 */
export function SearchBox(props: SearchBoxProps) {
  const admin = props.mode === 'admin';
  const courseId = props.mode === 'admin' ? undefined : props.courseId;
  const [text, setText] = useState('');
  const q = useDebounced(text.trim(), DEBOUNCE_MS);
  const label = admin ? 'Search every course' : courseId ? 'Search this course' : 'Search all my lectures';
  return (
    <Paper withBorder p="sm" radius="md" role="search">
      <Stack gap="xs">
        <SearchInput
          label={label}
          placeholder={admin || courseId ? 'Search what was said or on screen' : 'Search all my lectures'}
          value={text}
          maxLength={MAX_SEARCH_QUERY}
          onChange={setText}
        />
        <div aria-live="polite">
          {q.length > 0 && (
            <Suspense fallback={searching}>
              <SearchResults {...props} q={q} searching={searching} />
            </Suspense>
          )}
        </div>
      </Stack>
    </Paper>
  );
}
