import { and, asc, eq } from 'drizzle-orm';
import { learningMessages, type CourseNotesResponse, type Note } from '../../contract/learning';
import type { Db } from '../db/client';
import { isUuid } from '../db/ids';
import { courses, notes, videos } from '../db/schema';
import { notFound } from '../errors';

type Row = typeof notes.$inferSelect;

export const presentNote = (row: Row): Note => ({
  _id: row.id,
  videoId: row.videoId,
  t: row.t,
  text: row.text,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** The student's notes of one video, by time. */
export async function listNotes(db: Db, studentId: string, videoId: string): Promise<Note[]> {
  const rows = await db
    .select()
    .from(notes)
    .where(and(eq(notes.studentId, studentId), eq(notes.videoId, videoId)))
    .orderBy(asc(notes.t), asc(notes.createdAt));
  return rows.map(presentNote);
}

export async function addNote(
  db: Db,
  studentId: string,
  videoId: string,
  body: { t: number; text: string },
  now: Date,
): Promise<Note> {
  const [row] = await db
    .insert(notes)
    .values({ studentId, videoId, t: body.t, text: body.text, createdAt: now, updatedAt: now })
    .returning();
  return presentNote(row!);
}

/** The student's own note, or a 404 (another student's note is as unknown as a missing one). */
export async function ownNote(db: Db, studentId: string, noteId: string): Promise<Row> {
  const [row] = isUuid(noteId)
    ? await db
        .select()
        .from(notes)
        .where(and(eq(notes.id, noteId), eq(notes.studentId, studentId)))
        .limit(1)
    : [];
  if (!row) throw notFound(learningMessages.noteNotFound);
  return row;
}

export async function updateNote(
  db: Db,
  noteId: string,
  patch: { t?: number; text?: string },
  now: Date,
): Promise<Note> {
  const [row] = await db
    .update(notes)
    .set({ ...patch, updatedAt: now })
    .where(eq(notes.id, noteId))
    .returning();
  if (!row) throw notFound(learningMessages.noteNotFound);
  return presentNote(row);
}

export async function deleteNote(db: Db, noteId: string): Promise<void> {
  await db.delete(notes).where(eq(notes.id, noteId));
}

/** The student's notes of a course, by lecture (course order) and time; lectures without notes left out. */
export async function courseNotes(db: Db, studentId: string, courseId: string): Promise<CourseNotesResponse> {
  const [course] = await db
    .select({ id: courses.id, name: courses.name })
    .from(courses)
    .where(eq(courses.id, courseId))
    .limit(1);
  if (!course) throw notFound(learningMessages.courseNotFound);
  const rows = await db
    .select({ note: notes, title: videos.title, position: videos.position })
    .from(notes)
    .innerJoin(videos, eq(videos.id, notes.videoId))
    .where(and(eq(notes.studentId, studentId), eq(videos.courseId, courseId)))
    .orderBy(asc(videos.position), asc(videos.title), asc(notes.t), asc(notes.createdAt));
  const byVideo = new Map<string, CourseNotesResponse['videos'][number]>();
  for (const { note, title, position } of rows) {
    let video = byVideo.get(note.videoId);
    if (!video) {
      video = { _id: note.videoId, title, position, notes: [] };
      byVideo.set(note.videoId, video);
    }
    video.notes.push(presentNote(note));
  }
  return { course: { _id: course.id, name: course.name }, videos: [...byVideo.values()] };
}
