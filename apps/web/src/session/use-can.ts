import { type Action, type FeatureName, permissionName } from '@reformes/domain';
import { useSession } from './use-session.ts';

/** Whether `features` (the stored rights) hold `feature.action`; the server checks every request anyway. */
export function hasRight(features: readonly string[], feature: FeatureName, action: Action): boolean {
  return features.includes(permissionName(feature, action));
}

/** Whether the signed-in user may do `action` on `feature`: `useCan('backups', 'add')`. */
export function useCan(feature: FeatureName, action: Action): boolean {
  return hasRight(useSession().features, feature, action);
}
