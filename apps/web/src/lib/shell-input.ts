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

/** What the shell's fields held at the moment the app took the screen over. */
export interface ShellAtHandoff {
  /** Each input's value by its aria-label. */
  values: Readonly<Record<string, string>>;
  /** Whether its checkbox (the agreement) was ticked. */
  checked: boolean;
  /** The label of the input that had the focus, if any. */
  focusedLabel: string | null;
}

let atHandoff: ShellAtHandoff | null = null;

/**
 * Notes what the shell holds, just before it is removed (app/shell.ts handOffShell). The app's first
 * render is a transition that React renders in slices over several tasks (start/app.tsx): a visitor can
 * type or tick on the shell after the render read it and before the commit removes it. The note lasts
 * until the task ends — the commit's layout effects run in it — so a form mounted later never takes it.
 */
export function noteShellAtHandoff(): void {
  if (typeof document === 'undefined') return;
  const shell = document.querySelector(SHELL);
  if (!shell) return;
  const values: Record<string, string> = {};
  for (const input of Array.from(shell.querySelectorAll<HTMLInputElement>('input[aria-label]'))) {
    values[input.getAttribute('aria-label') ?? ''] = input.value;
  }
  atHandoff = { values, checked: shellChecked(), focusedLabel: shellFocusedLabel() };
  setTimeout(() => {
    atHandoff = null;
  }, 0);
}

/** What the shell held when the app took over, once (null when there was none, or it was taken). */
export function takeShellAtHandoff(): ShellAtHandoff | null {
  const noted = atHandoff;
  atHandoff = null;
  return noted;
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
