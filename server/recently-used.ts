/**
 * A map of at most `max` entries that drops the one set least recently (a Map keeps insertion
 * order, so setting a key again moves it last): the server's one bounded in-memory keep, each
 * made by the app that uses it (buildApp or a route's registration), never at module level.
 */
export class RecentlyUsed<K, V> {
  readonly #entries = new Map<K, V>();

  constructor(private readonly max: number) {}

  get(key: K): V | undefined {
    return this.#entries.get(key);
  }

  /** Keeps `value` under `key` as the most recent entry. */
  set(key: K, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.max) this.#entries.delete(this.#entries.keys().next().value as K);
  }

  delete(key: K): void {
    this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }
}
