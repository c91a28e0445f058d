import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { hiddenEdges, ScrollTable } from './ScrollTable';

describe('ScrollTable', () => {
  it('knows which edges hide columns', () => {
    expect(hiddenEdges({ scrollLeft: 0, scrollWidth: 400, clientWidth: 400 })).toEqual({ start: false, end: false });
    expect(hiddenEdges({ scrollLeft: 0, scrollWidth: 640, clientWidth: 390 })).toEqual({ start: false, end: true });
    expect(hiddenEdges({ scrollLeft: 100, scrollWidth: 640, clientWidth: 390 })).toEqual({ start: true, end: true });
    expect(hiddenEdges({ scrollLeft: 250, scrollWidth: 640, clientWidth: 390 })).toEqual({ start: true, end: false });
  });

  it('says it scrolls and takes the focus only when columns are hidden', () => {
    const sizes = { scrollWidth: 640, clientWidth: 390 };
    const widths = Object.entries(sizes).map(([k, v]) => [k, Object.getOwnPropertyDescriptor(HTMLElement.prototype, k), v] as const);
    for (const [k, , v] of widths) Object.defineProperty(HTMLElement.prototype, k, { configurable: true, get: () => v });
    try {
      render(
        <MantineProvider>
          <ScrollTable minWidth={640} label="Recent changes">
            <table aria-label="Recent changes" />
          </ScrollTable>
        </MantineProvider>,
      );
      const region = screen.getByRole('region', { name: 'Recent changes (scrolls sideways)' });
      expect(region).toHaveAttribute('tabindex', '0');
      expect(screen.getByText(/Scroll sideways for more columns/)).toBeInTheDocument();
    } finally {
      // jsdom defines them on Element: the override on HTMLElement goes, theirs shows again.
      for (const [k, d] of widths) {
        if (d) Object.defineProperty(HTMLElement.prototype, k, d);
        else delete (HTMLElement.prototype as unknown as Record<string, unknown>)[k];
      }
    }
  });

  it('is a plain box when everything fits', () => {
    render(
      <MantineProvider>
        <ScrollTable minWidth={300} label="People">
          <table aria-label="People" />
        </ScrollTable>
      </MantineProvider>,
    );
    expect(screen.queryByRole('region')).toBeNull();
    expect(screen.queryByText(/Scroll sideways/)).toBeNull();
  });
});
