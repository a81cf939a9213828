/**
 * The bytes of messages the gateway holds in memory while they arrive and are relayed, in all and
 * per organization. A message takes its bytes as they come; one that would pass either bound
 * takes nothing more and is answered with a temporary refusal, so a client's queue tries again
 * later (docs/security.md). Every byte taken is given back when its message is done, however it ends.
 */
export class MemoryBudget {
  private held = 0;
  private readonly byOrganization = new Map<string, number>();

  constructor(
    private readonly total: number,
    private readonly perOrganization: number,
  ) {}

  /** Takes `bytes` for the organization, or takes nothing and says false when either bound would be passed. */
  take(organizationId: string, bytes: number): boolean {
    const organization = this.byOrganization.get(organizationId) ?? 0;
    if (this.held + bytes > this.total || organization + bytes > this.perOrganization) return false;
    this.held += bytes;
    this.byOrganization.set(organizationId, organization + bytes);
    return true;
  }

  give(organizationId: string, bytes: number): void {
    if (bytes <= 0) return;
    this.held -= bytes;
    const left = (this.byOrganization.get(organizationId) ?? 0) - bytes;
    if (left > 0) this.byOrganization.set(organizationId, left);
    else this.byOrganization.delete(organizationId);
  }

  get heldBytes(): number {
    return this.held;
  }
}
