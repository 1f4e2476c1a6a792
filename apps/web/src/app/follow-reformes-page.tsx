import { PortfolioOverview } from '../features/portfolio/portfolio-overview.tsx';
import { SuiviViewPage } from '../features/suivi/suivi-view-page.tsx';

/** /admin/follow-reformes, "Suivi des réformes": the portfolio (features/portfolio) above a reform's follow-up (features/suivi). */
export function FollowReformesPage() {
  return <SuiviViewPage overview={(open) => <PortfolioOverview onOpen={open} />} />;
}
