import {
  ApprovalError,
  ContextOverflowError,
  SessionBusyError,
  SessionLeaseLostError,
} from '@agent-core/core';
import { expect, it } from 'vitest';
import { cliWords } from './cli-words.js';

it('a library error reads in CLI words: commands, flags and config keys, never a call to make', () => {
  const messages = [
    new SessionBusyError('5970a451', 'process 42 on host web-1').message,
    new SessionBusyError('5970a451').message,
    new SessionLeaseLostError('5970a451').message,
    new ApprovalError(
      'approval_claimed',
      "Another process already decided (or changed, or is running) session '5970a451' since this one loaded it, so these decisions were not applied and nothing ran here. Load the session again (manager.close(id), then manager.get(id)) to see the outcome.",
    ).message,
    'No Anthropic API key: set the ANTHROPIC_API_KEY environment variable or pass apiKey to anthropic({ apiKey }).',
    'openai: no API key. Set OPENAI_API_KEY or pass apiKey to openai({ apiKey }).',
    new ContextOverflowError(
      'The history cannot fit the context window: what must be kept takes 9 tokens, over the budget of 5. Shorten the largest message, unpin messages, or raise contextWindow.budgetTokens.',
    ).message,
    'Every decision given is for a call that was already decided, so nothing ran again: x. agent.pendingApprovals lists what still waits.',
  ];
  const words = messages.map(cliWords);
  for (const text of words) expect(text).not.toMatch(/manager\.|\(\)|\(\{|agent\.|contextWindow/);
  expect(words[0]).toBe(
    "Session '5970a451' is running a prompt in another process: process 42 on host web-1. Nothing ran here. Wait for that run to end, then run the command again.",
  );
  expect(words[1]).toContain('Wait for its answer, or stop it with Ctrl-C');
  expect(words[2]).toContain("'agent-core sessions show 5970a451' shows how it stands.");
  expect(words[3]).toContain("nothing ran here. 'agent-core sessions show 5970a451' shows the outcome.");
  expect(words[4]).toContain('set api_key in [providers.anthropic] of the config file');
  expect(words[5]).toContain('set api_key in [providers.openai] of the config file');
  expect(words[6]).toContain('raise context_window in the config file (or --context-window)');
  expect(words[7]).toContain("'agent-core approvals' lists what still waits.");
});
