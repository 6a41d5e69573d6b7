import type { App } from 'antd';

type MessageInstance = ReturnType<typeof App.useApp>['message'];

/**
 * antd's static `message` cannot read ConfigProvider context; the App component's instance can.
 * `<NotifyBridge />` (app/provider.tsx) registers it here so that non-React code can show messages.
 */
let instance: MessageInstance | null = null;

export function registerMessage(api: MessageInstance): void {
  instance = api;
}

export function notifyError(content: string, seconds = 3): void {
  if (instance) void instance.error(content, seconds);
  else console.error(content);
}

export function notifySuccess(content: string, seconds = 2): void {
  if (instance) void instance.success(content, seconds);
}

/** An information message; `key` keeps a repeated one (e.g. twice in React's strict mode) to one. */
export function notifyInfo(content: string, key?: string, seconds = 3): void {
  if (instance) void instance.info({ content, key, duration: seconds });
}
