import type { PermissionOption, RequestPermissionOutcome } from '@agentclientprotocol/sdk';

/** The four answers offered for every call that needs approval. */
export const permissionOptions: PermissionOption[] = [
  { optionId: 'allow_once', name: 'Allow once', kind: 'allow_once' },
  { optionId: 'allow_always', name: 'Allow always', kind: 'allow_always' },
  { optionId: 'reject_once', name: 'Reject', kind: 'reject_once' },
  { optionId: 'reject_always', name: 'Reject always', kind: 'reject_always' },
];

/** What the editor's answer means for the call: a decision, and whether to deny the tool for good. */
export interface PermissionAnswer {
  decision: 'allow' | 'allow_always' | 'deny';
  /** True for "reject always": later calls of the tool are denied without asking. */
  rejectAlways: boolean;
  /** True when the editor answered `cancelled` (the prompt was cancelled). */
  cancelled: boolean;
}

/** Maps the editor's outcome onto an approval decision; anything unknown denies. */
export function answerOf(outcome: RequestPermissionOutcome): PermissionAnswer {
  if (outcome.outcome === 'cancelled') return { decision: 'deny', rejectAlways: false, cancelled: true };
  switch (outcome.optionId) {
    case 'allow_once':
      return { decision: 'allow', rejectAlways: false, cancelled: false };
    case 'allow_always':
      return { decision: 'allow_always', rejectAlways: false, cancelled: false };
    case 'reject_always':
      return { decision: 'deny', rejectAlways: true, cancelled: false };
    default:
      return { decision: 'deny', rejectAlways: false, cancelled: false };
  }
}
