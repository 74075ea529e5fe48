/**
 * Which video a course page opens on: the one its `?video=` names, else the first. The page
 * (web/student/CoursePage), its route loader (web/app/prefetch.ts, which preloads that poster) and
 * the server filling in the page's first answers (server/http/route-preloads.ts) agree on it.
 */
export function openingVideoIndex(videos: readonly { _id: string }[], wanted: string | null): number {
  return Math.max(
    0,
    videos.findIndex((v) => v._id === wanted),
  );
}
