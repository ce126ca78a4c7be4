import type { Hono } from 'hono';
import type { DecisionInput, SessionView, ViewApproval } from '../../shared/studio-data.js';
import { readSessionView } from '../sessions/read-session-view.js';
import type { BrowserSession } from '../security/studio-access.js';
import type { StudioContext } from '../studio-context.js';
import { viewMessage } from '../view/view-message.js';
import { badRequest, failure, sessionIdOf } from './api-errors.js';
import { readApprovals } from '../sessions/read-approvals.js';

type Env = { Variables: { browser: BrowserSession } };

/** How much of one message "show all" sends: past this, the page says the size and what is cut. */
const wholeMessageLimit = 1_000_000;
const pageSizeLimit = 200;

/** The JSON API the page reads, and the changes it makes: decisions and prompts. */
export function apiRoutes(app: Hono<Env>, studio: StudioContext): void {
  app.get('/api/status', (context) => {
    void studio.index.refreshIfDue();
    return context.json({ canDecide: studio.runs.canDecide, storeError: studio.index.error ?? null });
  });

  app.get('/api/sessions', async (context) => {
    try {
      const limit = Number(context.req.query('limit') ?? 50);
      if (!Number.isInteger(limit) || limit < 1 || limit > pageSizeLimit)
        badRequest(`limit must be a whole number from 1 to ${pageSizeLimit}.`);
      const query = context.req.query('q') ?? '';
      const cursor = context.req.query('cursor');
      if (cursor !== undefined && !/^[^~]+~[A-Za-z0-9._-]{1,128}$/.test(cursor))
        badRequest('cursor must be the nextCursor of an earlier page.');
      void studio.index.refreshIfDue();
      const page = await studio.index.page({ query, limit, ...(cursor === undefined ? {} : { cursor }) });
      return context.json(page);
    } catch (error) {
      return failure(context, error, studio);
    }
  });

  app.get('/api/costs', async (context) => {
    try {
      const ids = (context.req.query('ids') ?? '').split(',').filter((id) => id !== '');
      if (ids.length > pageSizeLimit) badRequest(`At most ${pageSizeLimit} ids at once.`);
      const rows = ids.flatMap((id) => {
        const row = studio.index.get(id);
        return row === undefined ? [] : [row];
      });
      return context.json({ costs: await studio.costs.costsOf(rows) });
    } catch (error) {
      return failure(context, error, studio);
    }
  });

  app.get('/api/sessions/:id', async (context) => {
    try {
      const id = sessionIdOf(context);
      const listed = studio.index.get(id)?.status;
      const view: SessionView = await readSessionView(studio.store, id, {
        redactor: studio.redactor,
        marks: studio.runs.marks(id),
        canDecide: studio.runs.canDecide,
        canPrompt: studio.runs.canPrompt,
        ...(listed === undefined || studio.runs.isRunning(id) ? {} : { listedStatus: listed }),
      });
      return context.json(view);
    } catch (error) {
      return failure(context, error, studio);
    }
  });

  app.get('/api/sessions/:id/messages/:index', async (context) => {
    try {
      const id = sessionIdOf(context);
      const index = Number(context.req.param('index'));
      if (!Number.isInteger(index) || index < 0) badRequest('The message index must be a whole number.');
      const view = await readWholeMessage(studio, id, index);
      if (view === undefined) return context.json({ error: `Session ${id} has no message ${index}.` }, 404);
      return context.json(view);
    } catch (error) {
      return failure(context, error, studio);
    }
  });

  app.get('/api/approvals', async (context) => {
    try {
      // The first reading is waited for; later ones run behind the answer, as for the list.
      if (studio.index.ready) void studio.index.refreshIfDue();
      else await studio.index.refresh();
      const { approvals, problems, more } = await readApprovals(studio);
      const body: {
        approvals: ViewApproval[];
        problems: typeof problems;
        more: number;
        canDecide: boolean;
        storeError?: string;
      } = {
        approvals,
        problems,
        more,
        canDecide: studio.runs.canDecide,
      };
      if (studio.index.error !== undefined) body.storeError = studio.index.error;
      return context.json(body);
    } catch (error) {
      return failure(context, error, studio);
    }
  });

  app.post('/api/sessions/:id/prompt', async (context) => {
    try {
      const id = sessionIdOf(context);
      const text = promptText(await context.req.json().catch(() => undefined));
      const answer = await studio.runs.prompt(id, text);
      studio.logger.info('a prompt was sent from the studio', { sessionId: id, outcome: answer.outcome });
      return context.json(answer, answer.outcome === 'started' ? 200 : 409);
    } catch (error) {
      return failure(context, error, studio);
    }
  });

  app.post('/api/sessions/:id/decisions', async (context) => {
    try {
      const id = sessionIdOf(context);
      const decisions = decisionInputs(await context.req.json().catch(() => undefined));
      const answer = await studio.runs.decide(id, decisions);
      studio.logger.info('a decision was made in the studio', {
        sessionId: id,
        calls: decisions.map((decision) => `${decision.toolCallId}:${decision.decision}`).join(','),
        outcome: answer.outcome,
      });
      void studio.index.refresh();
      return context.json(
        answer,
        answer.outcome === 'resumed' ? 200 : answer.outcome === 'enqueued' ? 202 : 409,
      );
    } catch (error) {
      return failure(context, error, studio);
    }
  });
}

/** The prompt of a request body, checked: text of 1 to 100,000 characters. */
function promptText(body: unknown): string {
  const text = (body as { text?: unknown } | undefined)?.text;
  if (typeof text !== 'string' || text.trim() === '' || text.length > 100_000)
    badRequest('Send { "text": "..." } with a prompt of 1 to 100,000 characters.');
  return text;
}

/** The decisions of a request body, checked: each names a call and says allow or deny; a reason is text. */
function decisionInputs(body: unknown): DecisionInput[] {
  const decisions = (body as { decisions?: unknown } | undefined)?.decisions;
  if (!Array.isArray(decisions) || decisions.length === 0 || decisions.length > 100)
    badRequest(
      'Send { "decisions": [{ "toolCallId", "decision": "allow" | "deny", "reason"? }] } with 1 to 100 decisions.',
    );
  return decisions.map((decision: unknown) => {
    const given = decision as Partial<DecisionInput> | null;
    if (
      typeof given?.toolCallId !== 'string' ||
      given.toolCallId.length === 0 ||
      given.toolCallId.length > 256 ||
      (given.decision !== 'allow' && given.decision !== 'deny') ||
      (given.reason !== undefined && (typeof given.reason !== 'string' || given.reason.length > 2_000))
    )
      badRequest(
        'Each decision needs a toolCallId, a decision of "allow" or "deny", and at most a short reason.',
      );
    return {
      toolCallId: given.toolCallId,
      decision: given.decision,
      ...(given.reason === undefined ? {} : { reason: given.reason }),
    };
  });
}

async function readWholeMessage(studio: StudioContext, id: string, index: number) {
  const state = await studio.store.load(id);
  let message = state.messages[index];
  if (message === undefined) {
    // Past the snapshot: the message is in the log after it.
    let position = state.messages.length;
    for (const record of await studio.store.read(id, { fromSeq: state.lastSeq + 1 })) {
      if (record.event.type !== 'message') continue;
      if (position++ === index) {
        message = record.event.message;
        break;
      }
    }
  }
  if (message === undefined) return undefined;
  return viewMessage(message, index, studio.redactor, wholeMessageLimit);
}
