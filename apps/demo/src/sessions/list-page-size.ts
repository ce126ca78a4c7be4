/**
 * How many summaries the CLI asks a store for at once when it walks every
 * session (the approvals inbox, `--continue`, `sessions list --all`). Large,
 * because a store may read every summary to sort them for each page (the file
 * store does): walking 10,000 sessions 200 at a time read them all 50 times.
 */
export const listPageSize = 10_000;
