// The back office's entry (index.html). The public screens are pages of their own, without React (build/pages.ts).
import './app/public-styles.css';
import './app/focus.css';
import './app/start.tsx';
