export { quietPool, startTestServer } from './postgres-server.js';
export type { TestServer } from './postgres-server.js';
