import { Anchor, Badge, Group, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import type { SearchHit } from '../../contract/search';
import { searchMessages } from '../../contract/search-limits';
import { call, messageOf } from '../api/client';
import { formatClock } from '../player/format';
import classes from './SearchResults.module.css';
import type { ReactNode } from 'react';
import { groupByVideo, hitLink } from './snippet';

const SOURCE_LABEL: Record<SearchHit['source'], string> = {
  captions: 'captions',
  screen: 'on screen',
  speech: 'said',
};

/** A hit's still (decorative: the link names the lecture and time); a blank box until it loads or when there is none. */
function HitFrame({ url }: { url: string | null }) {
  const [failed, setFailed] = useState(false);
  return (
    <span className={classes.frame} aria-hidden="true">
      {url && !failed && <img src={url} alt="" loading="lazy" onError={() => setFailed(true)} />}
    </span>
  );
}

/** The hit's time, where its words were found and the snippet with the matches marked. */
function HitText({ hit, heading }: { hit: SearchHit; heading: string }) {
  return (
    <div className={classes.hitText}>
      <Group gap="xs" wrap="wrap" align="baseline" style={{ rowGap: 2 }}>
        <Text size="sm" fw={600}>
          {heading}
        </Text>
        <Badge size="xs" variant="light">
          {SOURCE_LABEL[hit.source]}
        </Badge>
      </Group>
      <Text size="sm" c="dimmed" lineClamp={2}>
        {hit.snippet.map((piece, i) =>
          piece.match ? <mark key={i}>{piece.text}</mark> : <span key={i}>{piece.text}</span>,
        )}
      </Text>
    </div>
  );
}

const hitKey = (hit: SearchHit) => `${hit.videoId}-${hit.t}-${hit.source}`;
const LIST_STYLE = { listStyle: 'none', padding: 0, margin: 0 } as const;

/** One hit: its still and its text, a link to `to` (`hiddenPrefix` names the lecture to screen readers). */
function HitLink({
  hit,
  to,
  heading,
  hiddenPrefix,
}: {
  hit: SearchHit;
  to: string;
  heading: string;
  hiddenPrefix?: string;
}) {
  return (
    <Anchor component={Link} to={to} replace underline="never" c="inherit" className={classes.hit}>
      <HitFrame url={hit.frameUrl} />
      {hiddenPrefix && <VisuallyHidden>{hiddenPrefix}</VisuallyHidden>}
      <HitText hit={hit} heading={heading} />
    </Anchor>
  );
}

/** A student's hits, best first: each opens the course page at that video and second. */
function StudentHits({ hits }: { hits: SearchHit[] }) {
  return (
    <Stack gap={6} component="ul" aria-label="Search results" style={LIST_STYLE}>
      {hits.map((hit) => (
        <li key={hitKey(hit)}>
          <HitLink hit={hit} to={hitLink(hit)} heading={`${hit.title} · ${formatClock(hit.t)}`} />
        </li>
      ))}
    </Stack>
  );
}

/** An admin's hits in every course, grouped by video (lecture and course named once); each links to `adminLink`. */
function AdminHits({
  hits,
  courseName,
  adminLink,
}: {
  hits: SearchHit[];
  courseName: (courseId: string | null) => string | undefined;
  adminLink: (hit: SearchHit) => string;
}) {
  return (
    <Stack gap="sm" component="ul" aria-label="Search results" style={LIST_STYLE}>
      {groupByVideo(hits).map((group) => {
        const first = group[0]!;
        const course = courseName(first.courseId);
        const headingId = `search-video-${first.videoId}`;
        return (
          <li key={first.videoId}>
            <section aria-labelledby={headingId}>
              <Group gap="xs" align="baseline" wrap="wrap" style={{ rowGap: 0 }}>
                <Title order={2} size="h6" id={headingId}>
                  {first.title}
                </Title>
                {course && (
                  <Text size="sm" c="dimmed">
                    {course}
                  </Text>
                )}
              </Group>
              <Stack gap={4} component="ul" mt={4} style={LIST_STYLE}>
                {group.map((hit) => (
                  <li key={hitKey(hit)}>
                    <HitLink
                      hit={hit}
                      to={adminLink(hit)}
                      heading={formatClock(hit.t)}
                      hiddenPrefix={`${first.title} at `}
                    />
                  </li>
                ))}
              </Stack>
            </section>
          </li>
        );
      })}
    </Stack>
  );
}

export type SearchBoxProps =
  | {
      mode?: 'student';
      /** Search this course only; all the student's courses when left out. */
      courseId?: string;
    }
  | {
      /** The back office: every course (GET /api/admin/search), hits grouped by video. */
      mode: 'admin';
      /** The name of a hit's course, when known. */
      courseName: (courseId: string | null) => string | undefined;
      /** Where a hit opens in the back office. */
      adminLink: (hit: SearchHit) => string;
    };

/**
 * The answer to a search box's query `q` (not empty): searching, the error, no matches, or the
 * hits. Its own chunk: a page with a search box loads it at the first letter typed.
 */
export default function SearchResults({
  q,
  searching,
  ...props
}: SearchBoxProps & { q: string; searching: ReactNode }) {
  const admin = props.mode === 'admin' ? props : null;
  const courseId = props.mode === 'admin' ? undefined : props.courseId;
  const results = useQuery({
    queryKey: admin ? ['admin', 'search', q] : ['student', 'search', courseId ?? '', q],
    queryFn: ({ signal }) =>
      (admin
        ? call('GET /api/admin/search', { query: { q }, signal })
        : call('GET /api/search', { query: { q, ...(courseId ? { courseId } : {}) }, signal })
      ).then((r) => r.hits),
    retry: false,
    staleTime: 30_000,
  });
  if (results.isPending) return searching;
  if (results.isError)
    return (
      <Text size="sm" c="red" role="alert">
        {messageOf(results.error, searchMessages.failed)}
      </Text>
    );
  if (!results.data.length)
    return (
      <Text size="sm" c="dimmed" role="status">
        {admin ? 'No matches in any course.' : 'No matches in your lectures.'}
      </Text>
    );
  return admin ? (
    <AdminHits hits={results.data} courseName={admin.courseName} adminLink={admin.adminLink} />
  ) : (
    <StudentHits hits={results.data} />
  );
}
