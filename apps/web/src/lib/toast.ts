/**
 * Toasts without putting antd-mobile's Toast (and its animation library, ~30 KB gzipped) in the
 * first load: the component is imported on the first toast. Messages are shown in call order.
 */
type ToastModule = typeof import('antd-mobile/es/components/toast');
type ToastApi = ToastModule['default'];

let loading: Promise<ToastApi> | null = null;
let loaded: ToastApi | null = null;

function load(): Promise<ToastApi> {
  loading ??= import('antd-mobile/es/components/toast').then((m) => {
    loaded = m.default;
    return m.default;
  });
  return loading;
}

export interface ToastOptions {
  content: string;
  /** Milliseconds; antd-mobile's default (2000) when absent. */
  duration?: number;
}

export const toast = {
  show(options: string | ToastOptions): void {
    const opts = typeof options === 'string' ? { content: options } : options;
    if (loaded) loaded.show(opts);
    else void load().then((api) => api.show(opts));
  },
  clear(): void {
    if (loaded) loaded.clear();
    else if (loading) void loading.then((api) => api.clear());
  },
  /** Starts loading the component (e.g. when a form gets focus) so the first toast is instant. */
  preload(): void {
    void load();
  },
};
