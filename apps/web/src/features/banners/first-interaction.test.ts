import { describe, expect, it } from 'vitest';
import {
  type InteractionEvent,
  type InteractionKind,
  nextInteracted,
  watchInteractions,
} from './first-interaction';

const ev = (kind: InteractionKind, inside = false, focusInside = false): InteractionEvent => ({
  kind,
  inside,
  focusInside,
});

/** The trigger after a sequence of events, from "not yet". */
const run = (...events: InteractionEvent[]) => events.reduce(nextInteracted, false);

describe('home dialog trigger: the first interaction outside the login card', () => {
  it('a scroll of the page or a tap outside the card triggers', () => {
    expect(run(ev('scroll'))).toBe(true);
    expect(run(ev('pointerdown'))).toBe(true);
    // Focus moving by itself (e.g. to a link outside the card) is no interaction.
    expect(run(ev('focusin'))).toBe(false);
  });

  it('a tap in the card does not, nor any trigger while the focus is in the form', () => {
    expect(run(ev('pointerdown', true))).toBe(false);
    expect(run(ev('pointerdown', true), ev('focusin', true))).toBe(false);
    // Typing: the keyboard and the field scrolled into view scroll the page; a tap outside the card
    // first takes the focus out of the form (its pointerdown comes while the field still has it).
    expect(run(ev('focusin', true), ev('scroll', false, true), ev('pointerdown', false, true))).toBe(false);
    // A container scrolling inside the card is not a scroll of the page.
    expect(run(ev('scroll', true))).toBe(false);
  });

  it('the next trigger after the focus has left the form does', () => {
    expect(run(ev('focusin', true), ev('scroll', false, true), ev('scroll'))).toBe(true);
    expect(run(ev('focusin', true), ev('pointerdown', false, true), ev('pointerdown'))).toBe(true);
  });

  it('a trigger not yet used is dropped when the visitor turns to the card', () => {
    // Scrolled while the dialog was still loading, then started typing: no dialog over the form.
    expect(run(ev('scroll'), ev('focusin', true))).toBe(false);
    expect(run(ev('pointerdown'), ev('pointerdown', true))).toBe(false);
    expect(run(ev('scroll'), ev('focusin', true), ev('scroll'))).toBe(true);
    // Once triggered, more of the same, or focus moving outside the card, keeps it.
    expect(run(ev('scroll'), ev('scroll'), ev('focusin'), ev('pointerdown'))).toBe(true);
  });
});

describe('watchInteractions', () => {
  /** A node tree in miniature: the card contains the nodes in `inCard`. */
  function scene() {
    const window = new EventTarget();
    const input = { name: 'phone input' } as unknown as Node;
    const headline = { name: 'headline' } as unknown as Node;
    const inCard = new Set<Node | null>([input]);
    let focused: Node | null = null;
    let mounted = true;
    const seen: InteractionEvent[] = [];
    const stop = watchInteractions(
      {
        target: window,
        excluded: () => (mounted ? { contains: (n: Node | null) => inCard.has(n) } : null),
        focused: () => focused,
      },
      (e) => seen.push(e),
    );
    const fire = (type: string, target: Node | EventTarget = window) => {
      const e = new Event(type);
      // A plain EventTarget has no tree: say where the event happened.
      Object.defineProperty(e, 'target', { value: target });
      window.dispatchEvent(e);
    };
    return {
      input,
      headline,
      seen,
      stop,
      fire,
      focus: (n: Node | null) => {
        focused = n;
      },
      unmount: () => {
        mounted = false;
      },
    };
  }

  it('describes where each event happened and where the focus is', () => {
    const s = scene();
    s.fire('pointerdown', s.input);
    s.focus(s.input);
    s.fire('focusin', s.input);
    s.fire('scroll');
    s.fire('pointerdown', s.headline);
    s.focus(null);
    s.fire('scroll');
    s.fire('keydown'); // not listened to
    expect(s.seen).toEqual([
      ev('pointerdown', true, false),
      ev('focusin', true, true),
      ev('scroll', false, true),
      ev('pointerdown', false, true),
      ev('scroll', false, false),
    ]);
    expect(s.seen.reduce(nextInteracted, false)).toBe(true);
  });

  it('counts everything as outside while the card is not mounted, and stops when told', () => {
    const s = scene();
    s.unmount();
    s.focus(s.input);
    s.fire('pointerdown', s.input);
    expect(s.seen).toEqual([ev('pointerdown', false, false)]);
    s.stop();
    s.fire('scroll');
    expect(s.seen).toHaveLength(1);
  });
});
