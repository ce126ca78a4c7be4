/** A ReAct action reply. */
export function action(thought: string, tool: string, input: Record<string, unknown>): string {
  return `Thought: ${thought}\nAction: ${tool}\nAction Input: ${JSON.stringify(input)}`;
}

/** A ReAct final-answer reply. */
export function final(thought: string, answer: string): string {
  return `Thought: ${thought}\nFinal Answer: ${answer}`;
}
