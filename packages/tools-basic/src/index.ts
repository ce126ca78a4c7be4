import './register.js';

export { basicTools } from './basic-tools.js';
export type { BasicToolsOptions } from './basic-tools.js';
export { calculatorTool } from './calculator-tool.js';
export { clockTool } from './clock-tool.js';
export type { ClockOptions } from './clock-tool.js';
export { evaluateExpression } from './evaluate-expression.js';
