import type { AgentEvent } from '../events/agent-event.js';
import { type CustomEvent, isCustomEvent } from '../events/custom-event.js';

/**
 * What the skill tools report as a `custom` event named `skill`: which skill
 * (and file) the model asked for, and whether its text was sent (`false`
 * when the model already had it and was told so).
 */
export interface SkillEventData {
  action: 'load' | 'read_file';
  skill: string;
  /** The file's path inside the skill's folder, for `read_file`. */
  path?: string;
  sent: boolean;
}

/** Narrows an event to the `custom` event the skill tools emit when the model loads a skill or reads one of its files. */
export function isSkillEvent(event: AgentEvent): event is CustomEvent<'skill', SkillEventData> {
  return isCustomEvent<'skill', SkillEventData>(event, 'skill');
}
