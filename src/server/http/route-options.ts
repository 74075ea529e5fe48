import type { AppContext } from '../context';
import type { Auth } from './auth';

/** What every domain's routes plugin is given: the context and the guards (app.ts passes more to some). */
export interface RouteOptions {
  ctx: AppContext;
  auth: Auth;
}
