import { Anchor, type AnchorProps } from '@mantine/core';
import type { ComponentPropsWithoutRef } from 'react';
import { Link } from 'react-router';

export type AnalyticsSubject = 'course' | 'video' | 'student';

/** The analytics page of one course, video or student (its route is in app/router.tsx). */
export const analyticsPath = (subject: AnalyticsSubject, id: string) => `/adminanalytics/${subject}/${id}`;

/** A link to the analytics page of one course, video or student; it replaces history, as every navigation does. */
export function AnalyticsLink({
  subject,
  id,
  ...props
}: AnchorProps &
  Pick<ComponentPropsWithoutRef<'a'>, 'children' | 'title' | 'aria-label'> & {
    subject: AnalyticsSubject;
    id: string;
  }) {
  return <Anchor component={Link} to={analyticsPath(subject, id)} replace {...props} />;
}
