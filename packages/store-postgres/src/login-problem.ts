import type { PostgresPool } from './postgres-pool.js';

/** What the store knows of the credentials it logs in with, never the password itself. */
export interface LoginSettings {
  /** Where the credentials are set, for advice: the connection string, or the settings of a pool you gave. */
  place: 'connection string' | 'pool';
  /** The user name given (connection string, pool settings or PGUSER); undefined when none is. */
  user: string | undefined;
  /** Whether a password is given, and whether it is empty. */
  password: 'given' | 'empty' | 'none';
  /** The database name given; undefined when none is (the server then takes the user name). */
  database: string | undefined;
}

/** The login settings of a store's connection string or pool, with the `PG*` variables `pg` falls back to. */
export function loginSettings(source: { connectionString?: string; pool?: PostgresPool }): LoginSettings {
  const options = (source.pool as { options?: Record<string, unknown> } | undefined)?.options;
  const text =
    source.connectionString ??
    (typeof options?.connectionString === 'string' ? options.connectionString : undefined);
  let url: URL | undefined;
  try {
    url = text === undefined ? undefined : new URL(text);
  } catch {}
  const given = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
  const user =
    given(options?.user) ?? given(url && decodeURIComponent(url.username)) ?? given(process.env.PGUSER);
  const database = given(options?.database) ?? given(url?.pathname.slice(1)) ?? given(process.env.PGDATABASE);
  // `user:@host` gives an empty password; `user@host` none. A URL reads both as ''.
  const emptyInUrl = text !== undefined && /^[a-z]+:\/\/[^/@]*:@/i.test(text);
  const password =
    given(options?.password) !== undefined ||
    typeof options?.password === 'function' ||
    given(url?.password) !== undefined
      ? 'given'
      : emptyInUrl || options?.password === ''
        ? 'empty'
        : given(process.env.PGPASSWORD) !== undefined
          ? 'given'
          : 'none';
  return { place: source.pool === undefined ? 'connection string' : 'pool', user, password, database };
}

/**
 * Why the server (or the driver, before asking it) refused the store's
 * login, as a sentence naming the credential that is wrong or missing (user,
 * password or database) and where to set it; undefined for any other
 * failure. Names come from the settings or the server's message; a password
 * is never quoted.
 */
export function loginProblem(error: unknown, login: LoginSettings): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  const where = login.place === 'connection string' ? 'the connection string' : "the pool's settings";
  const user = login.user === undefined ? undefined : `"${login.user}"`;
  const setUser = `name one in ${where} (postgres://user:password@host:5432/database) or in PGUSER`;
  const setPassword = `put it in ${where} (postgres://user:password@host:5432/database, percent-encoded) or in PGPASSWORD`;
  // pg refuses to answer a password challenge without a password before the server says anything.
  if (code === undefined && /password/i.test(message) && login.password !== 'given')
    return login.password === 'empty'
      ? `the server asks for the password of user ${user ?? '(the default)'}, and the password given is empty: ${setPassword}`
      : `the server asks for the password of user ${user ?? '(the default)'}, and none is given: ${setPassword}`;
  switch (code) {
    case '28P01': {
      const named = quotedName(message, /for user "([^"]*)"/) ?? user;
      if (login.user === undefined)
        return `the server refused the login of user ${named ?? '(the default)'} (28P01): ${where} names no user, so the driver took the system's login name; ${setUser}, with its password`;
      if (login.password === 'empty')
        return `the server refused the empty password of user ${named} (28P01): ${setPassword}`;
      return `the server refused the password of user ${named} (28P01): the password is wrong, or no such user exists. Check the user and the password in ${where} (or PGUSER and PGPASSWORD)`;
    }
    case '28000': {
      if (/no PostgreSQL user name/i.test(message)) return `no user is given (28000): ${setUser}`;
      const missing = quotedName(message, /role "([^"]*)" does not exist/);
      if (missing !== undefined)
        return `no user ${missing} exists on the server (28000): check the user name in ${where}, or create the role`;
      const barred = quotedName(message, /role "([^"]*)" is not permitted to log in/);
      if (barred !== undefined)
        return `user ${barred} may not log in (28000, a role without LOGIN): use a user that can, or give it LOGIN (ALTER ROLE ... LOGIN)`;
      if (/pg_hba\.conf/i.test(message))
        return `the server admits no login of user ${user ?? '(the default)'} to database ${login.database === undefined ? '(the default)' : `"${login.database}"`} from this host (28000, pg_hba.conf): check the user and the database in ${where}, or ask the server's administrator to allow it`;
      return `the server refused the login (28000: ${message}): check the user, password and database in ${where}`;
    }
    case '3D000': {
      const database = quotedName(message, /database "([^"]*)" does not exist/);
      return `the database ${database ?? 'given'} does not exist on the server (3D000): check the database name in ${where} (the path after the host; left out, it is the user's name), or create it (CREATE DATABASE)`;
    }
    case '42501':
      if (/permission denied for database/i.test(message))
        return `user ${user ?? '(the default)'} may not connect to database ${login.database === undefined ? '(the default)' : `"${login.database}"`} (42501): use a user that may, or grant it (GRANT CONNECT ON DATABASE ... TO ...)`;
      return undefined;
    default:
      return undefined;
  }
}

/** A name the server quoted in its message, quoted again; undefined when the pattern is not there. */
function quotedName(message: string, pattern: RegExp): string | undefined {
  const name = pattern.exec(message)?.[1];
  return name === undefined ? undefined : `"${name}"`;
}
