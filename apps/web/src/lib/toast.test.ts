import { describe, expect, it, vi } from 'vitest';
import { createToaster, type ToastApi } from './toast';

const fake = (): ToastApi & { shown: string[] } => {
  const shown: string[] = [];
  return { shown, show: (o) => shown.push(o.content), clear: vi.fn() };
};
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('createToaster', () => {
  it('shows through the component once it is loaded, in call order', async () => {
    const component = fake();
    const fallback = fake();
    const t = createToaster(async () => component, fallback);
    t.show('一');
    t.show({ content: '二', duration: 1000 });
    await settle();
    t.show('三');
    expect(component.shown).toEqual(['一', '二', '三']);
    expect(fallback.shown).toEqual([]);
  });

  it('the component cannot be loaded (offline): the plain toast says it, and every later toast', async () => {
    const component = fake();
    const fallback = fake();
    const load = vi
      .fn<() => Promise<ToastApi>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValue(component);
    const t = createToaster(load, fallback);
    t.show('网络连接错误');
    await settle();
    expect(fallback.shown).toEqual(['网络连接错误']);

    // Not loaded again: Vite would not fetch the chunk's stylesheet a second time.
    t.show('验证码已发送');
    t.preload();
    await settle();
    expect(load).toHaveBeenCalledTimes(1);
    expect(fallback.shown).toEqual(['网络连接错误', '验证码已发送']);
    expect(component.shown).toEqual([]);
  });

  it('a failed preload is not an unhandled rejection; toasts then use the plain element', async () => {
    const fallback = fake();
    const t = createToaster(() => Promise.reject(new Error('offline')), fallback);
    t.preload();
    t.clear();
    await settle();
    t.show('好');
    expect(fallback.shown).toEqual(['好']);
  });
});
