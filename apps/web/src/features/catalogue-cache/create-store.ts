import { useSyncExternalStore } from 'react';

/**
 * A tiny observable store (the till's working state and preferences): get, set, subscribe,
 * and a selector hook on top of useSyncExternalStore. Optionally persisted to localStorage
 * under one key, so a reload keeps the sale and the cashier's preferences (spec 3).
 */
export interface Store<T> {
  get(): T;
  set(next: T | ((prev: T) => T)): void;
  subscribe(listener: () => void): () => void;
}

export interface PersistOptions<T> {
  key: string;
  /** Merges what was stored with the defaults (a newer app version may add fields). */
  revive?: (stored: unknown, defaults: T) => T;
  /** What is written (e.g. leaving out transient fields). */
  dehydrate?: (state: T) => unknown;
}

function readStorage(key: string): unknown {
  try {
    const raw = globalThis.localStorage?.getItem(key);
    return raw ? JSON.parse(raw) : undefined;
  } catch {
    return undefined;
  }
}

export function createStore<T>(initial: T, persist?: PersistOptions<T>): Store<T> {
  let state = initial;
  if (persist) {
    const stored = readStorage(persist.key);
    if (stored !== undefined) {
      state = persist.revive
        ? persist.revive(stored, initial)
        : typeof stored === 'object' && stored && typeof initial === 'object'
          ? { ...initial, ...(stored as object) }
          : (stored as T);
    }
  }
  const listeners = new Set<() => void>();
  let writeTimer: ReturnType<typeof setTimeout> | null = null;
  const write = () => {
    writeTimer = null;
    if (!persist) return;
    try {
      globalThis.localStorage?.setItem(persist.key, JSON.stringify(persist.dehydrate ? persist.dehydrate(state) : state));
    } catch {
      /* storage full or disabled: the sale still works, it just does not survive a reload */
    }
  };
  return {
    get: () => state,
    set(next) {
      const value = typeof next === 'function' ? (next as (prev: T) => T)(state) : next;
      if (Object.is(value, state)) return;
      state = value;
      // Writes are coalesced: typing in the search box must not serialise the cart per key.
      if (persist && writeTimer === null) writeTimer = setTimeout(write, 50);
      for (const l of [...listeners]) l();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** Subscribes a component to a slice of a store. The selector must return a stable value (a field, not a new object). */
export function useStore<T, S>(store: Store<T>, selector: (state: T) => S): S {
  return useSyncExternalStore(
    store.subscribe,
    () => selector(store.get()),
    () => selector(store.get()),
  );
}
