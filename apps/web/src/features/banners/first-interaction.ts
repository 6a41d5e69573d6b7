/**
 * When the home dialog may open (docs/decisions/016): at the visitor's first interaction with the
 * landing page — a scroll, or a tap outside the login card — never over the first view, and never
 * while the visitor is busy with the login form.
 */
import { type RefObject, useEffect, useState } from 'react';

export type InteractionKind = 'pointerdown' | 'scroll' | 'focusin';

export interface InteractionEvent {
  kind: InteractionKind;
  /** The event's target is inside the login card. */
  inside: boolean;
  /** The focus is inside the login card (the visitor is typing a phone number or a code). */
  focusInside: boolean;
}

/**
 * The trigger after one event (pure). A scroll or a tap outside the card, with the focus outside it,
 * triggers. Turning to the card (a tap in it, the focus entering it) drops a trigger not yet used: a
 * dialog still loading must not pop up over someone typing. Anything else changes nothing — in
 * particular a scroll while the focus is in the form (the on-screen keyboard and the browser scrolling
 * the field into view scroll the page too).
 */
export function nextInteracted(interacted: boolean, event: InteractionEvent): boolean {
  if (event.inside && event.kind !== 'scroll') return false;
  if (event.kind === 'focusin' || event.inside || event.focusInside) return interacted;
  return true;
}

interface Containing {
  contains(other: Node | null): boolean;
}

export interface InteractionScope {
  /** Where the listeners go: the window (taps anywhere, the page's scroll and any container's). */
  target: Pick<EventTarget, 'addEventListener' | 'removeEventListener'>;
  /** The login card, or null while it is not mounted. */
  excluded(): Containing | null;
  /** The focused element (document.activeElement). */
  focused(): Node | null;
}

const KINDS: readonly InteractionKind[] = ['pointerdown', 'scroll', 'focusin'];

/**
 * Listens (capture phase, so nothing on the page can hide an event from us; passive, so scrolling
 * never waits for us) and describes each event to `onEvent`. Returns the function that stops.
 */
export function watchInteractions(scope: InteractionScope, onEvent: (event: InteractionEvent) => void) {
  const handle = (e: Event) => {
    const card = scope.excluded();
    onEvent({
      kind: e.type as InteractionKind,
      inside: card?.contains(e.target as Node | null) ?? false,
      focusInside: card?.contains(scope.focused()) ?? false,
    });
  };
  const options = { capture: true, passive: true };
  for (const kind of KINDS) scope.target.addEventListener(kind, handle, options);
  return () => {
    for (const kind of KINDS) scope.target.removeEventListener(kind, handle, options);
  };
}

/**
 * True once the visitor has scrolled the page or tapped outside `excludeRef` (with the focus outside
 * it); back to false when they turn to it before the trigger was used. Listens while `enabled`.
 */
export function useFirstInteraction(excludeRef: RefObject<Element | null>, enabled = true): boolean {
  const [interacted, setInteracted] = useState(false);
  useEffect(() => {
    if (!enabled) return;
    return watchInteractions(
      { target: window, excluded: () => excludeRef.current, focused: () => document.activeElement },
      // The facts are read at the event; React drops the many updates that change nothing (a scroll).
      (event) => setInteracted((now) => nextInteracted(now, event)),
    );
  }, [excludeRef, enabled]);
  return interacted;
}
