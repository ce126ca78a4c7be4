import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';

/** Rows drawn beyond the visible ones on each side, so scrolling shows no gap. */
const overscan = 10;

/**
 * A list of `count` rows of one height in a box of `height` pixels that
 * scrolls: only the rows in view (and a few around) are in the document, so
 * ten thousand rows cost what forty do.
 */
export function VirtualRows({
  count,
  rowHeight,
  height,
  label,
  renderRow,
}: {
  count: number;
  rowHeight: number;
  height: number;
  label: string;
  renderRow: (index: number) => ComponentChildren;
}) {
  const [scrollTop, setScrollTop] = useState(0);
  const boxHeight = Math.min(height, count * rowHeight);
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const last = Math.min(count, Math.ceil((scrollTop + boxHeight) / rowHeight) + overscan);
  const rows: ComponentChildren[] = [];
  for (let index = first; index < last; index++) rows.push(renderRow(index));
  return (
    <section
      class="virtual"
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a box that scrolls must take the focus, or a keyboard cannot scroll it
      tabIndex={0}
      style={{ height: `${boxHeight}px` }}
      onScroll={(event) => setScrollTop((event.currentTarget as HTMLElement).scrollTop)}
    >
      <div style={{ height: `${count * rowHeight}px`, position: 'relative' }}>
        <ul
          aria-label={label}
          style={{ position: 'absolute', top: `${first * rowHeight}px`, left: 0, right: 0 }}
        >
          {rows}
        </ul>
      </div>
    </section>
  );
}
