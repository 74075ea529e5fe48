import type { QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs } from 'react-router';
import { openingVideoIndex } from '../../contract/opening-video';
import { authCheckQuery, PREFETCHED_FRESH_MS, serverTimeQuery } from '../api/session';
import { studentQueries } from '../api/student';

/**
 * Route loaders that start a page's requests while its code is still downloading, instead of one
 * after the other once each gate has rendered (on a phone over mobile data every round trip costs
 * a few hundred milliseconds). The page's own queries pick the answers up from the cache (or join
 * the request still under way). Only the course route waits for its answer (prefetchCourse); the
 * others return at once. A page opened by its address usually has these answers in its HTML
 * already (api/first-answers.ts): then no request leaves at all.
 */

/**
 * For each route with one of these loaders: prefetch when the route starts to match, not again when
 * React Router revalidates (a changed `?video=`): by then the page's own queries are in charge.
 */
export const prefetchOnce = () => false;

/** An answer fetched moments ago (a sign-in just checked the session) is not asked for again. */
const fresh = { staleTime: PREFETCHED_FRESH_MS };

/** Opening hours: every student page shows only when they say so (app/TimeGate). */
export const prefetchOpeningHours = (queryClient: QueryClient) => () => {
  void queryClient.prefetchQuery({ ...serverTimeQuery, ...fresh });
  return null;
};

/**
 * The session check of the signed-in student pages; `then` runs only for a student who may see
 * them, `otherwise` for anyone else (the gate sends them away) or when the check fails.
 */
function whenSignedIn(queryClient: QueryClient, then: () => void, otherwise: () => void = () => {}) {
  void queryClient.fetchQuery({ ...authCheckQuery, ...fresh }).then(
    (check) => (check.valid && check.role === 'student' && !check.firstlogin ? then() : otherwise()),
    otherwise, // the gate shows the failure
  );
}

/** The student shell (session/StudentGate): the session check. */
export const prefetchStudentSession = (queryClient: QueryClient) => () => {
  whenSignedIn(queryClient, () => {});
  return null;
};

/** /dashboard: the course list. */
export const prefetchDashboard = (queryClient: QueryClient) => () => {
  whenSignedIn(queryClient, () => void queryClient.prefetchQuery({ ...studentQueries.courses(), ...fresh }));
  return null;
};

/** How long the course route waits for its video list before it shows its skeleton instead. */
export const COURSE_WAIT_MS = 2_500;

/**
 * /course/:courseId: the videos, the roll number and the course names; then the poster of the video
 * the page opens with (its largest picture) is fetched at once instead of after the page renders.
 * The route waits for the video list (up to COURSE_WAIT_MS): the page then opens on its poster,
 * title and playlist in one go, where a skeleton replaced by content of another height would shift
 * everything below it on a phone.
 */
export const prefetchCourse =
  (queryClient: QueryClient) =>
  ({ params, request }: LoaderFunctionArgs) => {
    const courseId = params.courseId;
    if (!courseId) return null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const listed = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, COURSE_WAIT_MS);
      whenSignedIn(
        queryClient,
        () => {
          void queryClient.prefetchQuery(studentQueries.rollno(courseId));
          void queryClient.prefetchQuery({ ...studentQueries.courses(), ...fresh });
          void queryClient.fetchQuery({ ...studentQueries.videos(courseId), ...fresh }).then(
            (videos) => {
              const wanted = new URL(request.url).searchParams.get('video');
              const current = videos[openingVideoIndex(videos, wanted)];
              if (current?.thumbnail) preloadImage(current.thumbnail);
              resolve();
            },
            () => resolve(), // the page shows the failure
          );
        },
        resolve,
      );
    });
    return listed.then(() => {
      clearTimeout(timer);
      return null;
    });
  };

/** A high-priority `<link rel="preload" as="image">`, once per URL. */
function preloadImage(href: string) {
  if (document.head.querySelector(`link[rel="preload"][href="${CSS.escape(href)}"]`)) return;
  const link = document.createElement('link');
  link.rel = 'preload';
  link.as = 'image';
  link.href = href;
  link.fetchPriority = 'high';
  document.head.append(link);
}
