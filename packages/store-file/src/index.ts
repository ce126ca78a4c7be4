export { FileSessionStore } from './file-session-store.js';
export type { FileSessionStoreOptions } from './file-session-store.js';
export type { SessionRepairReport } from './session-repair.js';
export { nodeFileOperations } from './file-operations.js';
export type { FileOperations } from './file-operations.js';
