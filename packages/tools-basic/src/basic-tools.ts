import type { AnyTool } from '@agent-core/core';
import { calculatorTool } from './calculator-tool.js';
import { type ClockOptions, clockTool } from './clock-tool.js';

/** Options of `basicTools()`. */
export type BasicToolsOptions = ClockOptions;

/** The `basic` pack: `calculator` and `clock`. */
export function basicTools(options: BasicToolsOptions = {}): AnyTool[] {
  return [calculatorTool(), clockTool(options)];
}
