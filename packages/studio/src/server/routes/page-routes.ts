import type { Hono } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { plainPage } from '../security/guard-requests.js';
import type { BrowserSession } from '../security/studio-access.js';
import type { StudioContext } from '../studio-context.js';

type Env = { Variables: { browser: BrowserSession } };

/**
 * `/`: with the printed token, signs the browser in (an HttpOnly,
 * SameSite=Strict cookie) and sends it to `/` without the token; with the
 * cookie, the page itself (its CSRF token in a meta tag, the script and style
 * as files: the CSP allows no inline script). `/app.js` and `/app.css`.
 */
export function pageRoutes(app: Hono<Env>, studio: StudioContext): void {
  app.get('/', (context) => {
    const token = context.req.query('token');
    if (token !== undefined) {
      const browser = studio.access.exchange(token);
      if (browser === undefined)
        return context.html(
          plainPage(
            "This address's token is not this studio's. Open the address the studio printed when it started.",
          ),
          401,
        );
      setCookie(context, studio.access.cookieName, browser.cookie, {
        httpOnly: true,
        sameSite: 'Strict',
        path: '/',
      });
      return context.redirect('/', 303);
    }
    const browser = studio.access.session(getCookie(context, studio.access.cookieName));
    if (browser === undefined)
      return context.html(
        plainPage('Open the address the studio printed (with its token) to sign this browser in.'),
        401,
      );
    return context.html(pageHtml(browser.csrf));
  });
  app.get('/app.js', (context) => {
    context.header('Content-Type', 'text/javascript; charset=utf-8');
    return context.body(studio.assets.script);
  });
  // Browsers ask for it on their own; the studio has none.
  app.get('/favicon.ico', (context) => context.body(null, 204));
  app.get('/app.css', (context) => {
    context.header('Content-Type', 'text/css; charset=utf-8');
    return context.body(studio.assets.style);
  });
}

function pageHtml(csrf: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="csrf-token" content="${csrf}">
<title>agent-core studio</title>
<link rel="stylesheet" href="/app.css">
<script type="module" src="/app.js"></script>
</head>
<body>
<div id="app"><p>Loading the studio…</p></div>
<noscript>The studio needs JavaScript.</noscript>
</body>
</html>
`;
}
