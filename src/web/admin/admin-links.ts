/** The back office's screens (SPEC.md section 2, plus student management), as the dashboard and the navigation list them. */
export interface AdminLink {
  to: string;
  label: string;
}

export const adminHome: AdminLink = { to: '/admindashboard', label: 'Dashboard' };

export const courseLinks: AdminLink[] = [
  { to: '/admincourse', label: 'Create Course' },
  { to: '/editcoursedetails', label: 'Edit Course Details' },
  { to: '/editcourse', label: 'Edit Course Access' },
];

export const videoLinks: AdminLink[] = [
  { to: '/adminvideo', label: 'Upload Video' },
  { to: '/editvideodetails', label: 'Edit Video Details' },
  { to: '/editvideo', label: 'Edit Video Access' },
  // In the Videos menu: the top bar is full at 1280 px.
  { to: '/adminsearch', label: 'Search lectures' },
  // Live classes stream into a lecture of the course (docs/LIVE.md).
  { to: '/adminlive', label: 'Live classes' },
];

export const studentsLink: AdminLink = { to: '/adminstudents', label: 'Manage Students' };

export const analyticsLink: AdminLink = { to: '/adminanalytics', label: 'Analytics' };

export const traceLink: AdminLink = { to: '/admintrace', label: 'Trace a leak' };

export const backupsLink: AdminLink = { to: '/adminbackups', label: 'Backups' };

export const questionsLink: AdminLink = { to: '/adminquestions', label: 'Questions' };

export const instructorsLink: AdminLink = { to: '/admininstructors', label: 'Instructors' };

export const certificatesLink: AdminLink = { to: '/admincertificates', label: 'Certificates' };

/** Who is signed in to the back office (GET /api/admin/auth/admincheck). */
export type StaffRole = 'admin' | 'instructor';

/**
 * The screens an instructor may use (the route table's `instructor` rights): their courses' videos
 * (upload, details, search), analytics and questions, their own account. Course editing and
 * access, students' accounts, tracing, backups and instructors are the admins'.
 */
const INSTRUCTOR_SCREENS = new Set([
  '/admindashboard',
  '/adminvideo',
  '/editvideodetails',
  '/adminsearch',
  '/adminlive',
  '/adminanalytics',
  '/adminquestions',
  '/adminpasskeys',
  '/adminaccount',
]);

/** The links `role` may use (an admin all of them). */
export function linksFor<T extends AdminLink>(role: StaffRole | undefined, links: T[]): T[] {
  return role === 'instructor' ? links.filter((link) => INSTRUCTOR_SCREENS.has(link.to)) : links;
}

export const passkeysLink: AdminLink = { to: '/adminpasskeys', label: 'Passkeys' };
/** The signed-in admin's own password, sessions and recovery codes. */
export const accountLink: AdminLink = { to: '/adminaccount', label: 'Your account' };
