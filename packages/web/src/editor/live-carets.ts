import { Extension } from '@tiptap/core';
import { yCursorPlugin } from '@tiptap/y-tiptap';
import type { Awareness } from 'y-protocols/awareness';

/** Who someone is beside their caret, as the live document's awareness carries it. */
interface CaretUser {
  name: string;
  color: string;
}

function caretUserOf(value: unknown): CaretUser {
  const user = (typeof value === 'object' && value !== null ? value : {}) as Partial<CaretUser>;
  return {
    name: typeof user.name === 'string' && user.name.trim() !== '' ? user.name.slice(0, 80) : 'Someone',
    // Only a plain colour reaches the style attribute: awareness comes from other people's browsers.
    color: typeof user.color === 'string' && /^#[0-9a-f]{6}$/i.test(user.color) ? user.color : '#6b7280',
  };
}

/** Another person's caret: a coloured bar with their name above it (text, never HTML). */
export function caretElement(value: unknown): HTMLElement {
  const user = caretUserOf(value);
  const caret = document.createElement('span');
  caret.className = 'pw-live-caret';
  caret.style.borderColor = user.color;
  caret.setAttribute('aria-hidden', 'true');
  const label = document.createElement('span');
  label.className = 'pw-live-caret-label';
  label.style.backgroundColor = user.color;
  label.textContent = user.name;
  caret.append(label);
  return caret;
}

/**
 * What the others see beside your caret: your name, else your e-mail's local part, as the server names
 * accounts to other people (docs/http-api.md). Never the whole address: readers of a shared blueprint
 * are strangers.
 */
export function caretName(who: { name: string | null; email: string | null }): string {
  const name = who.name?.trim();
  if (name) return name;
  const email = who.email?.trim() ?? '';
  const at = email.lastIndexOf('@');
  const local = at < 0 ? email : email.slice(0, at);
  return local === '' ? 'Someone' : local;
}

/** A stable colour for a person (their account id or e-mail), from a palette readable on both themes. */
export function caretColor(key: string): string {
  const palette = ['#2563eb', '#db2777', '#059669', '#d97706', '#7c3aed', '#dc2626', '#0891b2', '#4d7c0f'];
  let hash = 0;
  for (let i = 0; i < key.length; i++) hash = (hash * 31 + key.charCodeAt(i)) | 0;
  return palette[Math.abs(hash) % palette.length] ?? '#2563eb';
}

type AwarenessListener = (
  changes: { added: number[]; updated: number[]; removed: number[] },
  origin: unknown,
) => void;

/**
 * The awareness as the caret plugin sees it: its `change` listeners hear only of other people's states. The
 * plugin redraws the carets with a whole editor transaction on every change, one's own caret moves with every
 * keystroke, and one's own caret is never drawn: that second transaction per key is work for nothing.
 */
export function othersOnly(awareness: Awareness): Awareness {
  const wrapped = new Map<AwarenessListener, AwarenessListener>();
  const own = (name: string, listener: AwarenessListener): AwarenessListener => {
    if (name !== 'change') return listener;
    const filtered: AwarenessListener = (changes, origin) => {
      const { added, updated, removed } = changes;
      if ([added, updated, removed].some((ids) => ids.some((id) => id !== awareness.clientID))) {
        listener(changes, origin);
      }
    };
    wrapped.set(listener, filtered);
    return filtered;
  };
  return new Proxy(awareness, {
    get(target, property) {
      if (property === 'on') {
        return (name: string, listener: AwarenessListener) => target.on(name, own(name, listener));
      }
      if (property === 'off') {
        return (name: string, listener: AwarenessListener) => {
          target.off(name, wrapped.get(listener) ?? listener);
          wrapped.delete(listener);
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * The others' carets and selections in a live plan (editor/SPEC.md E35), on y-tiptap's cursor plugin
 * over the live document's awareness: `@tiptap/extension-collaboration-caret` has no release for the
 * Tiptap version we use.
 */
export function liveCarets(awareness: Awareness): Extension {
  return Extension.create({
    name: 'liveCarets',
    addProseMirrorPlugins() {
      return [
        yCursorPlugin(othersOnly(awareness), {
          cursorBuilder: (user: unknown) => caretElement(user),
          selectionBuilder: (user: unknown) => ({
            style: `background-color: ${caretUserOf(user).color}33`,
            class: 'pw-live-selection',
          }),
        }),
      ];
    },
  });
}
