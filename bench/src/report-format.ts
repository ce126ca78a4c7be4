// The number and table formats every section of the bench report writes.

/** `value` with `digits` decimals and thousands separators, or `n/a` when it is not finite. */
export const number = (value: number, digits = 1) =>
  Number.isFinite(value)
    ? value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
    : 'n/a';

/** One Markdown table row. */
export function row(cells: readonly string[]): string {
  return `| ${cells.join(' | ')} |`;
}

/** A Markdown table: the header, its rule, then the rows. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return [row(header), row(header.map(() => '---')), ...rows.map(row)].join('\n');
}
