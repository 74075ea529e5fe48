import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { createBrowserRouter, type LoaderFunction, type RouteObject } from 'react-router';
import { FullScreenLoader } from '../ui/FullScreenLoader';
import { ErrorPage } from './ErrorPage';
import { lazyPage } from './lazy-route';
import {
  prefetchCourse,
  prefetchDashboard,
  prefetchOnce,
  prefetchOpeningHours,
  prefetchStudentSession,
} from './prefetch';
import { RootLayout } from './RootLayout';
import TimeGateLayout from './TimeGate';

/** A route whose page is the default export of a module loaded on demand; `loader` starts its requests meanwhile. */
const page = (
  path: string,
  load: () => Promise<{ default: ComponentType }>,
  loader?: LoaderFunction,
): RouteObject => ({
  path,
  lazy: lazyPage(load),
  ...(loader && { loader, shouldRevalidate: prefetchOnce }),
});

/**
 * The entry carries only the Mantine styles the student pages use; the back office's chunks wait
 * for the rest (admin/mantine-styles.ts) so that their own CSS is added after it, in the order the
 * whole stylesheet had.
 */
const withAdminStyles =
  <T,>(load: () => Promise<T>) =>
  () =>
    import('../admin/mantine-styles').then(load);
const adminPage = (path: string, load: () => Promise<{ default: ComponentType }>) =>
  page(path, withAdminStyles(load));

/**
 * Every screen of SPEC.md section 2. Each page is its own chunk, loaded on demand, inside layout
 * routes (their own chunks too) that hold the gates: opening hours and the student session for the
 * student pages, the admin session and the back office frame for the admin pages. The student
 * routes' loaders (app/prefetch.ts) start the gates' and the page's requests while the chunks load.
 */
export const appRoutes = (queryClient: QueryClient): RouteObject[] => [
  {
    element: <RootLayout />,
    errorElement: <ErrorPage />,
    hydrateFallbackElement: <FullScreenLoader />,
    children: [
      {
        // In the entry chunk: every student page needs it first, and it is small.
        element: <TimeGateLayout />,
        loader: prefetchOpeningHours(queryClient),
        shouldRevalidate: prefetchOnce,
        children: [
          page('/', () => import('../student/LoginPage')),
          {
            lazy: lazyPage(() => import('../student/StudentShell').then((m) => ({ default: m.ResetShell }))),
            children: [page('/reset-password', () => import('../student/ResetPasswordPage'))],
          },
          {
            lazy: lazyPage(() => import('../student/StudentShell')),
            loader: prefetchStudentSession(queryClient),
            shouldRevalidate: prefetchOnce,
            children: [
              page('/dashboard', () => import('../student/DashboardPage'), prefetchDashboard(queryClient)),
              page('/course/:courseId', () => import('../student/CoursePage'), prefetchCourse(queryClient)),
              page('/course/:courseId/notes', () => import('../learning/MyNotesPage')),
            ],
          },
        ],
      },
      adminPage('/adminlogin', () => import('../admin/login/AdminLoginPage')),
      adminPage('/adminsetup', () => import('../admin/login/SetupPage')),
      {
        lazy: lazyPage(withAdminStyles(() => import('../admin/AdminLayout'))),
        children: [
          adminPage('/admindashboard', () => import('../admin/dashboard/AdminDashboardPage')),
          adminPage('/admincourse', () => import('../admin/courses/CreateCoursePage')),
          adminPage('/editcoursedetails', () => import('../admin/courses/EditCourseDetailsPage')),
          adminPage('/editcourse', () => import('../admin/access/CourseAccessPage')),
          adminPage('/adminvideo', () => import('../admin/videos/UploadVideoPage')),
          adminPage('/editvideo', () => import('../admin/videos/ManageVideosPage')),
          adminPage('/editvideodetails', () => import('../admin/videos/EditVideoDetailsPage')),
          adminPage('/adminsearch', () => import('../admin/search/AdminSearchPage')),
          adminPage('/adminlive', () => import('../admin/live/LiveClassesPage')),
          adminPage('/adminlive/:classId', () => import('../admin/live/LiveClassPage')),
          adminPage('/admin/course/:courseId', () => import('../admin/courses/AdminCoursePage')),
          adminPage('/adminstudents', () => import('../admin/students/StudentsPage')),
          adminPage('/adminanalytics', () => import('../admin/analytics/AnalyticsHomePage')),
          adminPage(
            '/adminanalytics/course/:courseId',
            () => import('../admin/analytics/CourseAnalyticsPage'),
          ),
          adminPage('/adminanalytics/video/:videoId', () => import('../admin/analytics/VideoAnalyticsPage')),
          adminPage(
            '/adminanalytics/student/:studentId',
            () => import('../admin/analytics/StudentAnalyticsPage'),
          ),
          adminPage('/admintrace', () => import('../admin/trace/TracePage')),
          adminPage('/adminbackups', () => import('../admin/backups/BackupsPage')),
          adminPage('/adminquestions', () => import('../admin/questions/QuestionQueuePage')),
          adminPage('/admininstructors', () => import('../admin/instructors/InstructorsPage')),
          adminPage('/admincertificates', () => import('../admin/certificates/CertificatesPage')),
          adminPage('/adminpasskeys', () => import('../admin/login/PasskeysPanel')),
          adminPage('/adminaccount', () => import('../admin/account/AccountPage')),
        ],
      },
      // Public at any hour, outside the opening-hours gate: an employer checks a certificate here.
      page('/verify/:serial', () => import('../certificates/VerifyPage')),
      page('/policy', () => import('../ui/info-routes').then((m) => ({ default: m.Policy }))),
      page('/support', () => import('../ui/info-routes').then((m) => ({ default: m.Support }))),
      page('/contact', () => import('../ui/info-routes').then((m) => ({ default: m.Contact }))),
      page('*', () => import('../ui/NotFoundPage')),
    ],
  },
];

export const createRouter = (queryClient: QueryClient) => createBrowserRouter(appRoutes(queryClient));
