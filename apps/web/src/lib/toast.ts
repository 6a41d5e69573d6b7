/**
 * Toasts without putting antd-mobile's Toast (and its animation library, ~30 KB gzipped) in the
 * first load: the component is imported on the first toast. Messages are shown in call order.
 *
 * When the component cannot be loaded — typically because the network is gone, which is when a toast
 * such as "网络连接错误" matters most (issue 16.7) — the message is shown in a plain element instead,
 * and so are the page's later toasts: Vite does not fetch a chunk's stylesheet again once it failed,
 * so a component loaded on a later try would show unstyled.
 */
type ToastModule = typeof import('antd-mobile/es/components/toast');

export interface ToastOptions {
  content: string;
  /** Milliseconds; antd-mobile's default (2000) when absent; 0 until cleared. */
  duration?: number;
  /** antd-mobile's icons (the plain fallback shows the text only). */
  icon?: 'success' | 'fail' | 'loading';
  /** false: the page behind takes no taps while it shows. */
  maskClickable?: boolean;
}

/** What the toast needs of antd-mobile's Toast. */
export interface ToastApi {
  show(options: ToastOptions): unknown;
  clear(): void;
}

export interface Toaster {
  show(options: string | ToastOptions): void;
  clear(): void;
  /** Starts loading the component (e.g. when a form gets focus) so the first toast is instant. */
  preload(): void;
}

/**
 * A toaster over `load` (the component) and `fallback` (a plain toast): once `load` has failed, the
 * fallback shows every later toast too.
 */
export function createToaster(load: () => Promise<ToastApi>, fallback: ToastApi): Toaster {
  let loading: Promise<ToastApi> | null = null;
  /** The component, or the fallback after a failed load; null while loading. */
  let settled: ToastApi | null = null;
  const start = (): Promise<ToastApi> => {
    loading ??= load()
      .catch(() => fallback)
      .then((api) => {
        settled = api;
        return api;
      });
    return loading;
  };
  return {
    show(options) {
      const opts = typeof options === 'string' ? { content: options } : options;
      if (settled) settled.show(opts);
      // In call order: each waits for the same load.
      else void start().then((api) => api.show(opts));
    },
    clear() {
      fallback.clear();
      if (settled) settled.clear();
      else if (loading) void loading.then((api) => api.clear());
    },
    preload() {
      void start();
    },
  };
}

const PLAIN_TOAST_STYLE: Partial<CSSStyleDeclaration> = {
  position: 'fixed',
  left: '50%',
  top: '50%',
  transform: 'translate(-50%, -50%)',
  zIndex: '10000',
  maxWidth: '70vw',
  padding: '12px 16px',
  borderRadius: '8px',
  background: 'rgba(0, 0, 0, 0.7)',
  color: '#fff',
  fontSize: '15px',
  lineHeight: '1.4',
  textAlign: 'center',
  pointerEvents: 'none',
};

/** A toast made of one element (styled through the CSSOM, which the CSP allows). */
function plainToast(): ToastApi {
  let current: { el: HTMLElement; timer: ReturnType<typeof setTimeout> } | null = null;
  const clear = () => {
    if (!current) return;
    clearTimeout(current.timer);
    current.el.remove();
    current = null;
  };
  return {
    show(options) {
      if (typeof document === 'undefined') return;
      clear();
      const el = document.createElement('div');
      el.setAttribute('role', 'alert');
      el.textContent = options.content;
      Object.assign(el.style, PLAIN_TOAST_STYLE);
      document.body.appendChild(el);
      const duration = options.duration ?? 2000;
      current = { el, timer: setTimeout(clear, duration === 0 ? 2 ** 31 - 1 : duration) };
    },
    clear,
  };
}

export const toast: Toaster = createToaster(
  () => import('antd-mobile/es/components/toast').then((m: ToastModule) => m.default),
  plainToast(),
);
