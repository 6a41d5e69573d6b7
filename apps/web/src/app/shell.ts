import { useLayoutEffect } from 'react';
import { noteShellAtHandoff } from '@/lib/shell-input';

/**
 * A screen the server rendered (ADR 065; templates of scripts/prerender.mjs) sits in #lm-shell, beside the
 * app's #root, which is hidden while it is shown. The app's page replaces the shell when it has rendered,
 * not before: React shows the route's loading spinner while a lazy page resolves, and over a
 * pre-rendered page that flashed a spinner between two identical paints.
 */
export const SHELL_ID = 'lm-shell';

/** Removes the shell and shows #root (in the same frame, when called from a layout effect). */
export function handOffShell(): void {
  // What the visitor typed into it up to now, for the page's form (lib/shell-input.ts).
  noteShellAtHandoff();
  document.getElementById(SHELL_ID)?.remove();
  delete document.documentElement.dataset.shell;
}

/**
 * Hands the screen over to the app once the component has committed: place it before the page's
 * content (sibling layout effects run in order, so the page measures itself visible).
 */
export function useShellHandoff(): void {
  useLayoutEffect(handOffShell, []);
}

export function ShellHandoff(): null {
  useShellHandoff();
  return null;
}
