import { createBrowserRouter, type RouteObject } from 'react-router';
import { FullScreenLoader } from '../ui/FullScreenLoader';
import { ErrorPage } from './ErrorPage';
import { lazyPage } from './lazy-route';
import { RootLayout } from './RootLayout';

/**
 * Every screen of SPEC.md section 2. Each page is its own chunk, loaded on demand; its module's
 * default export wraps itself in the gates it needs (time gate, student or admin session).
 */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <ErrorPage />,
    hydrateFallbackElement: <FullScreenLoader />,
    children: [
      { path: '/', lazy: lazyPage(() => import('../student/login-route')) },
      { path: '/reset-password', lazy: lazyPage(() => import('../student/reset-route')) },
      { path: '/dashboard', lazy: lazyPage(() => import('../student/dashboard-route')) },
      { path: '/course/:courseId', lazy: lazyPage(() => import('../student/course-route')) },
      { path: '/adminlogin', lazy: lazyPage(() => import('../admin/login/AdminLoginPage')) },
      { path: '/admindashboard', lazy: lazyPage(() => import('../admin/routes/dashboard-route')) },
      { path: '/admincourse', lazy: lazyPage(() => import('../admin/routes/create-course-route')) },
      {
        path: '/editcoursedetails',
        lazy: lazyPage(() => import('../admin/routes/edit-course-details-route')),
      },
      { path: '/editcourse', lazy: lazyPage(() => import('../admin/routes/course-access-route')) },
      { path: '/adminvideo', lazy: lazyPage(() => import('../admin/routes/upload-video-route')) },
      { path: '/editvideo', lazy: lazyPage(() => import('../admin/routes/manage-videos-route')) },
      { path: '/editvideodetails', lazy: lazyPage(() => import('../admin/routes/edit-video-details-route')) },
      { path: '/admin/course/:courseId', lazy: lazyPage(() => import('../admin/routes/course-route')) },
      { path: '/adminstudents', lazy: lazyPage(() => import('../admin/routes/students-route')) },
      {
        path: '/policy',
        lazy: lazyPage(() => import('../ui/info-routes').then((m) => ({ default: m.Policy }))),
      },
      {
        path: '/support',
        lazy: lazyPage(() => import('../ui/info-routes').then((m) => ({ default: m.Support }))),
      },
      {
        path: '/contact',
        lazy: lazyPage(() => import('../ui/info-routes').then((m) => ({ default: m.Contact }))),
      },
      { path: '*', lazy: lazyPage(() => import('../ui/NotFoundPage')) },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
