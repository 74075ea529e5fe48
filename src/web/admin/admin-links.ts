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
];

export const studentsLink: AdminLink = { to: '/adminstudents', label: 'Manage Students' };

export const analyticsLink: AdminLink = { to: '/adminanalytics', label: 'Analytics' };

export const traceLink: AdminLink = { to: '/admintrace', label: 'Trace a leak' };

export const backupsLink: AdminLink = { to: '/adminbackups', label: 'Backups' };

export const questionsLink: AdminLink = { to: '/adminquestions', label: 'Questions' };

export const passkeysLink: AdminLink = { to: '/adminpasskeys', label: 'Passkeys' };
/** The signed-in admin's own password, sessions and recovery codes. */
export const accountLink: AdminLink = { to: '/adminaccount', label: 'Your account' };
