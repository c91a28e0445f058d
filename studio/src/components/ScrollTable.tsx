/**
 * A table that may be wider than the screen (a phone): it scrolls sideways inside its own box, never
 * the page, and shows that it does: while columns are hidden a line says "Scroll sideways for more
 * columns", and a shadow marks each edge with more beyond it. The box is then a named region that
 * takes the keyboard focus, so the arrow keys scroll it (axe scrollable-region-focusable).
 */
import { useCallback, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { Text } from '@mantine/core';

/** Which edges of a scrolling box have content beyond them (1 px of slack for rounding). */
export function hiddenEdges(box: { scrollLeft: number; scrollWidth: number; clientWidth: number }): { start: boolean; end: boolean } {
  const start = box.scrollLeft > 1;
  const end = box.scrollLeft + box.clientWidth < box.scrollWidth - 1;
  return { start, end };
}

const shadow = (side: 'left' | 'right') =>
  ({
    position: 'absolute',
    top: 0,
    bottom: 0,
    [side]: 0,
    width: 16,
    pointerEvents: 'none',
    background: `linear-gradient(to ${side === 'left' ? 'right' : 'left'}, rgba(0, 0, 0, 0.14), transparent)`,
  }) as const;

export function ScrollTable({ minWidth, label, children }: { minWidth: number; label: string; children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  const [edges, setEdges] = useState({ start: false, end: false });
  const measure = useCallback(() => {
    if (!box.current) return;
    const next = hiddenEdges(box.current);
    setEdges((e) => (e.start === next.start && e.end === next.end ? e : next));
  }, []);
  // Measured before the first paint: measured after it, a box that scrolls was shown for a moment
  // without its role and focus stop, and an accessibility check caught it then (CI, a loaded machine).
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    if (el.firstElementChild) observer.observe(el.firstElementChild);
    return () => observer.disconnect();
  }, [measure]);
  const scrolls = edges.start || edges.end;
  return (
    <div>
      {scrolls ? (
        <Text size="xs" c="dimmed" mb={4} aria-hidden>
          Scroll sideways for more columns →
        </Text>
      ) : null}
      <div style={{ position: 'relative' }}>
        <div
          ref={box}
          onScroll={measure}
          role={scrolls ? 'region' : undefined}
          aria-label={scrolls ? `${label} (scrolls sideways)` : undefined}
          tabIndex={scrolls ? 0 : undefined}
          style={{ overflowX: 'auto' }}
          data-scrolls={scrolls || undefined}
        >
          <div style={{ minWidth }}>{children}</div>
        </div>
        {edges.start ? <div style={shadow('left')} aria-hidden /> : null}
        {edges.end ? <div style={shadow('right')} aria-hidden /> : null}
      </div>
    </div>
  );
}
