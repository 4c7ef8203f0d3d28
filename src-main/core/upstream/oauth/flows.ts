// Sign-ins under way, keyed by the `state` each authorization URL carries. The loopback callback
// finds its flow here, once: a wrong, expired or replayed `state` finds nothing and is refused.
// At most one flow per upstream: a newer authorization URL replaces the older one.

/** How long a sign-in link stays good: long enough to find a password, short enough not to linger. */
export const SIGN_IN_TTL_MS = 15 * 60 * 1000;

export type SignInFlow = {
  vendor: string;
  state: string;
  /** The authorization URL the user's browser opens. */
  url: string;
  createdAt: number;
  /** Redeems the callback's code (and iss) for tokens through the SDK; rejects with a sentence. */
  finish: (params: URLSearchParams) => Promise<void>;
};

export class SignInFlows {
  private readonly byState = new Map<string, SignInFlow>();
  private readonly redeeming = new Map<string, number>();

  constructor(private readonly now: () => number) {}

  register(flow: Omit<SignInFlow, 'createdAt'>): void {
    for (const [state, f] of this.byState) if (f.vendor === flow.vendor) this.byState.delete(state);
    this.byState.set(flow.state, { ...flow, createdAt: this.now() });
  }

  /** The link a person should open to sign in to `vendor`, while it is good. */
  pending(vendor: string): SignInFlow | undefined {
    this.expire();
    for (const f of this.byState.values()) if (f.vendor === vendor) return f;
    return undefined;
  }

  /** The flow a callback's `state` names, removed so it can be used once. */
  take(state: string): SignInFlow | undefined {
    this.expire();
    const f = this.byState.get(state);
    if (f) this.byState.delete(state);
    return f;
  }

  /**
   * Runs a taken flow's redemption; until it settles the upstream still counts as waiting for its
   * sign-in, so no one reads the moment between the callback and the tokens as a sign-in given up.
   */
  async redeem(flow: SignInFlow, params: URLSearchParams): Promise<void> {
    this.redeeming.set(flow.vendor, (this.redeeming.get(flow.vendor) ?? 0) + 1);
    try {
      await flow.finish(params);
    } finally {
      const left = (this.redeeming.get(flow.vendor) ?? 1) - 1;
      if (left > 0) this.redeeming.set(flow.vendor, left);
      else this.redeeming.delete(flow.vendor);
    }
  }

  /** Whether a callback for `vendor` is being redeemed right now. */
  isRedeeming(vendor: string): boolean {
    return this.redeeming.has(vendor);
  }

  /** Forgets an upstream's flow (signed out, removed from the config). */
  cancel(vendor: string): void {
    for (const [state, f] of this.byState) if (f.vendor === vendor) this.byState.delete(state);
  }

  private expire(): void {
    const now = this.now();
    for (const [state, f] of this.byState) if (now - f.createdAt > SIGN_IN_TTL_MS) this.byState.delete(state);
  }
}
