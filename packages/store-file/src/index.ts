export { FileSessionStore } from './file-session-store.js';
export type { FileSessionStoreOptions } from './file-session-store.js';
export { nodeFileOperations } from './file-operations.js';
export type { FileOperations } from './file-operations.js';
