import { Hono } from 'hono';
import { apiRoutes } from './routes/api-routes.js';
import { failure } from './routes/api-errors.js';
import { liveRoute } from './routes/live-route.js';
import { pageRoutes } from './routes/page-routes.js';
import { guardRequests, securityHeaders } from './security/guard-requests.js';
import type { BrowserSession } from './security/studio-access.js';
import type { StudioContext } from './studio-context.js';

/** The studio's routes behind its guard; any error a route lets through is answered, never a crash. */
export function studioApp(studio: StudioContext): Hono<{ Variables: { browser: BrowserSession } }> {
  const app = new Hono<{ Variables: { browser: BrowserSession } }>();
  app.use('*', securityHeaders());
  app.use('*', guardRequests(studio));
  pageRoutes(app, studio);
  apiRoutes(app, studio);
  liveRoute(app, studio);
  app.notFound((context) => context.json({ error: `Nothing at ${context.req.path}.` }, 404));
  app.onError((error, context) => failure(context, error, studio));
  return app;
}
