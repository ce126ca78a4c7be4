import { describe, test } from 'vitest';
import { sessionStoreConformance } from '../testing/index.js';
import { MemorySessionStore } from './memory-session-store.js';

sessionStoreConformance(() => new MemorySessionStore(), { test, describe });
