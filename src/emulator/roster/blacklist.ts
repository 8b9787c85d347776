// Each user's personal blacklist (8.5, 8.6, 8.16), in the order the users were put on it.
export class Blacklists {
  private readonly byOwner = new Map<number, Set<number>>();

  has(owner: number, other: number): boolean {
    return this.byOwner.get(owner)?.has(other) ?? false;
  }

  /** Whether either of the two has the other on their blacklist. */
  between(a: number, b: number): boolean {
    return this.has(a, b) || this.has(b, a);
  }

  add(owner: number, other: number): void {
    let list = this.byOwner.get(owner);
    if (!list) this.byOwner.set(owner, (list = new Set()));
    list.add(other);
  }

  remove(owner: number, other: number): void {
    this.byOwner.get(owner)?.delete(other);
  }

  idsOf(owner: number): number[] {
    return [...(this.byOwner.get(owner) ?? [])];
  }
}
