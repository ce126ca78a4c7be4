import { orchestratorConformance } from '@agent-core/core/testing';
import { describe, test } from 'vitest';
import { agentic } from './index.js';

orchestratorConformance(() => agentic(), { test, describe, runs: 200 });
