export interface LeasePolicy {
  min: number;
  max: number;
  default: number;
}

/**
 * The lease the hub grants (WebSub §5.3: the hub may change the requested value): the request clamped
 * to [min, max], the default when none was asked for (contract §6).
 */
export function grantLease(requested: number | null, policy: LeasePolicy): number {
  const wanted = requested ?? policy.default;
  return Math.min(policy.max, Math.max(policy.min, wanted));
}
