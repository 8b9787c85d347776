// A stand-in for a test resource that beforeAll creates: the file declares it at the top
// (`const stack = useStack()`) and uses it in its tests as if it were the resource itself.
export function lateBound<T extends object>(current: () => T | undefined, what: string): T {
  return new Proxy({} as T, {
    get(_target, key) {
      const target = current();
      if (!target) throw new Error(`${what} is used before beforeAll started it`);
      const value: unknown = Reflect.get(target, key);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
