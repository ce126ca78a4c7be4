import type { Diff } from '@agentclientprotocol/sdk';
import type { AnyTool, PendingApproval } from '@agent-core/core';
import { answerOf, type PermissionAnswer, permissionOptions } from './permission-options.js';
import { viewOfToolCall } from './tool-call-view.js';
import type { UpdateTarget } from './update-sender.js';

/** One permission request: the approval, how to show its call, and what withdraws it. */
export interface PermissionQuestion {
  sessionId: string;
  approval: PendingApproval;
  tool: AnyTool | undefined;
  cwd: string;
  /** The change a write or edit call would make, shown with the question. */
  diff?: Diff;
  /** Aborted by a cancel: the request is withdrawn and the answer is `cancelled`. */
  signal: AbortSignal;
}

/**
 * Sends `session/request_permission` for a call waiting for approval and maps
 * the answer. Resolves undefined when the editor is gone (the approval stays
 * stored), `cancelled` when the request was withdrawn, and a denial when the
 * editor failed to answer (logged); it never rejects.
 */
export async function askPermission(
  target: UpdateTarget,
  question: PermissionQuestion,
): Promise<PermissionAnswer | undefined> {
  if (target.disconnected) return undefined;
  const { approval, sessionId } = question;
  const call = {
    type: 'toolCall' as const,
    id: approval.toolCallId,
    name: approval.toolName,
    input: approval.input,
  };
  const view = viewOfToolCall(call, question.tool, question.cwd);
  try {
    const response = await target.client.request(
      'session/request_permission',
      {
        sessionId,
        toolCall: {
          toolCallId: approval.toolCallId,
          title: view.title,
          kind: view.kind,
          status: 'pending',
          locations: view.locations,
          rawInput: approval.input,
          ...(question.diff === undefined ? {} : { content: [{ type: 'diff', ...question.diff }] }),
        },
        options: permissionOptions,
      },
      { cancellationSignal: question.signal, stopWaitingOnCancel: true },
    );
    return answerOf(response.outcome);
  } catch (error) {
    if (question.signal.aborted) return { decision: 'deny', rejectAlways: false, cancelled: true };
    if (target.disconnected) return undefined;
    target.logger.warn('the editor did not answer a permission request; the call is denied', {
      sessionId,
      toolCallId: approval.toolCallId,
      error: String(error),
    });
    return { decision: 'deny', rejectAlways: false, cancelled: false };
  }
}
