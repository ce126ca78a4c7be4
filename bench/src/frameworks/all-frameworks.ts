import type { Orchestrator } from '@agent-core/core';
import { aiSdkFramework } from './ai-sdk.js';
import { coreFramework, coreFrameworks } from './agent-core.js';
import { coreFeatureFrameworks } from './agent-core-features.js';
import { coreOtelFrameworks } from './agent-core-otel.js';
import { bareFramework } from './bare.js';
import type { Framework } from './framework.js';
import { openaiAgentsFramework } from './openai-agents.js';
import { piAgentFramework, piLoopFramework } from './pi-agent-core.js';
import { scriptedReactProvider } from './react-provider.js';

/** Why the ReAct contender is missing, when it is. */
export let reactPending: string | undefined;

/** The ReAct orchestrator, if its package has been built; it is measured once its `dist` exists. */
async function reactFramework(): Promise<Framework | undefined> {
  // A variable specifier: the package may not be built yet, and its absence must not break the build.
  const specifier = '@agent-core/orchestrator-react';
  let react: (options?: object) => Orchestrator;
  try {
    ({ react } = (await import(specifier)) as { react: (options?: object) => Orchestrator });
  } catch (error) {
    reactPending = `not built yet (${(error as Error).message.split('\n')[0]})`;
    return undefined;
  }
  return coreFramework({
    id: 'core-react',
    label: 'agent-core react',
    orchestrator: () => react(),
    provider: 'scripted',
    scriptedProvider: scriptedReactProvider,
    multipleCalls: false,
  });
}

/** Every contender, the bare loop first. */
export async function allFrameworks(): Promise<Framework[]> {
  const frameworks: Framework[] = [
    bareFramework(),
    bareFramework({ plain: true }),
    ...coreFrameworks(),
    ...coreOtelFrameworks(),
    ...coreFeatureFrameworks(),
  ];
  const react = await reactFramework();
  if (react !== undefined) frameworks.push(react);
  frameworks.push(piLoopFramework(), piAgentFramework(), aiSdkFramework(), openaiAgentsFramework());
  return frameworks;
}
