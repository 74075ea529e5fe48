import type { AdminVideo } from '../../../contract/videos';

export interface VideoGroup {
  key: string;
  title: string;
  courseId: string | null;
  videos: AdminVideo[];
}

export const UNASSIGNED_VIDEOS = 'Unassigned Videos';

/** Videos under 'course name Videos (Batch n)', in the server's order, then 'Unassigned Videos' (SPEC.md section 2). */
export function groupVideos(videos: AdminVideo[]): VideoGroup[] {
  const groups = new Map<string, VideoGroup>();
  const unassigned: AdminVideo[] = [];
  for (const video of videos) {
    if (!video.course) {
      unassigned.push(video);
      continue;
    }
    const { _id, name, batch } = video.course;
    let group = groups.get(_id);
    if (!group) {
      group = { key: _id, title: `${name} Videos (Batch ${batch})`, courseId: _id, videos: [] };
      groups.set(_id, group);
    }
    group.videos.push(video);
  }
  const list = [...groups.values()];
  if (unassigned.length)
    list.push({ key: 'unassigned', title: UNASSIGNED_VIDEOS, courseId: null, videos: unassigned });
  return list;
}
