import { MutationObserver, onlineManager } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { queryClient } from './react-query';

describe('queryClient mutations offline (issue 16.7)', () => {
  afterEach(() => onlineManager.setOnline(true));

  it('run and fail at once instead of pausing until the network returns', async () => {
    onlineManager.setOnline(false);
    let calls = 0;
    const observer = new MutationObserver(queryClient, {
      mutationFn: async () => {
        calls++;
        throw new TypeError('Failed to fetch');
      },
    });
    await expect(observer.mutate()).rejects.toThrow('Failed to fetch');
    expect(calls).toBe(1);
    expect(observer.getCurrentResult()).toMatchObject({ status: 'error', isPaused: false });
    // A later tap runs again.
    await expect(observer.mutate()).rejects.toThrow('Failed to fetch');
    expect(calls).toBe(2);
  }, 2000);
});
