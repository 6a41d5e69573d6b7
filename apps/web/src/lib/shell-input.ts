/**
 * What a visitor typed into a server-rendered page before the app took it over (issue 17.1). The login
 * page's fields are real inputs in the server's HTML: a visitor on a slow network can type the phone
 * before the app's scripts arrive. The app's form starts with those values (and the focus), read from
 * the page's shell (#lm-shell) while it is still there — during the app's first render.
 */
const SHELL = '#lm-shell';

function shellInput(selector: string): HTMLInputElement | null {
  if (typeof document === 'undefined') return null;
  return document.querySelector<HTMLInputElement>(`${SHELL} ${selector}`);
}

/** The value typed into the shell's input labelled `label` ('' when none). */
export function shellValue(label: string): string {
  return shellInput(`input[aria-label="${label}"]`)?.value ?? '';
}

/** Whether the shell's checkbox (the agreement) was ticked. */
export function shellChecked(): boolean {
  return shellInput('input[type="checkbox"]')?.checked ?? false;
}

/** The label of the shell's input that has the focus, if any. */
export function shellFocusedLabel(): string | null {
  if (typeof document === 'undefined') return null;
  const active = document.activeElement;
  if (!(active instanceof HTMLInputElement) || !active.closest(SHELL)) return null;
  return active.getAttribute('aria-label');
}

/**
 * The text of the shell's button tapped last before the app took over (noted by boot.js), once;
 * null when none was.
 */
export function takeShellTap(): string | null {
  if (typeof document === 'undefined') return null;
  const html = document.documentElement;
  const tap = html.dataset.shellTap ?? null;
  delete html.dataset.shellTap;
  return tap;
}
