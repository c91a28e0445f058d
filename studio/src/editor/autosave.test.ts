import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/client';
import type { Entry } from '../api/types';
import type { Draft } from '../screens/entries/model';
import { useAutosave } from './autosave';

const entry = {} as Entry;
const draft = (title: string): Draft => ({ data: { title }, translations: {} });

describe('autosave', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('saves once, 1 s after the last of several edits, with If-Match of the last ETag', async () => {
    const save = vi.fn(async (_d: Draft, etag: string | null) => ({ entry, etag: `${etag}+` }));
    const { result } = renderHook(() => useAutosave(save, '"e-1"', () => {}));
    act(() => result.current.change(draft('a')));
    await act(async () => vi.advanceTimersByTime(600));
    act(() => result.current.change(draft('ab')));
    expect(result.current.state).toBe('dirty');
    await act(async () => vi.advanceTimersByTime(999));
    expect(save).not.toHaveBeenCalled();
    await act(async () => vi.advanceTimersByTime(1));
    expect(save).toHaveBeenCalledTimes(1);
    expect(save).toHaveBeenCalledWith(draft('ab'), '"e-1"');
    expect(result.current.state).toBe('saved');
    act(() => result.current.change(draft('abc')));
    await act(async () => result.current.flush());
    expect(save).toHaveBeenLastCalledWith(draft('abc'), '"e-1"+');
  });

  it('stops on 412: reports the conflict and saves nothing more until reset', async () => {
    const save = vi.fn(async () => {
      throw new ApiError(412, 'PRECONDITION_FAILED', 'If-Match does not match', null, 'req_1');
    });
    const { result } = renderHook(() => useAutosave(save, '"e-1"', () => {}));
    act(() => result.current.change(draft('a')));
    await act(async () => vi.advanceTimersByTime(1000));
    expect(result.current.state).toBe('conflict');
    act(() => result.current.change(draft('b')));
    await act(async () => vi.advanceTimersByTime(2000));
    expect(save).toHaveBeenCalledTimes(1);
    await expect(result.current.flush()).rejects.toThrow(/Someone else saved/);
    act(() => result.current.reset('"e-3"'));
    expect(result.current.state).toBe('saved');
  });

  it('reports a refusal and saves again on the next edit', async () => {
    const save = vi
      .fn<(d: Draft, e: string | null) => Promise<{ entry: Entry; etag: string | null }>>()
      .mockRejectedValueOnce(new ApiError(400, 'VALIDATION_FAILED', 'Validation failed', [{ path: 'body.data.title', message: 'too long' }], 'req_2'))
      .mockResolvedValue({ entry, etag: '"e-2"' });
    const { result } = renderHook(() => useAutosave(save, '"e-1"', () => {}));
    act(() => result.current.change(draft('a')));
    await act(async () => vi.advanceTimersByTime(1000));
    expect(result.current.state).toBe('error');
    expect((result.current.error as ApiError).errors?.[0].path).toBe('body.data.title');
    act(() => result.current.change(draft('b')));
    await act(async () => vi.advanceTimersByTime(1000));
    expect(result.current.state).toBe('saved');
    expect(result.current.error).toBeNull();
  });
});
