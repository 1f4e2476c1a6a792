/**
 * The outcome the directory's callback page carries (issue 42), checked by the domain's schema. Loaded only on that
 * page: the schema brings zod, which the sign-in page's other visits never load.
 */
import { DIRECTORY_MESSAGES, type DirectoryOutcome, directoryOutcomeSchema } from '@reformes/domain';

/** The callback's outcome, or a refusal when the page holds something else than what the server writes. */
export function parseOutcome(text: string): DirectoryOutcome {
  try {
    const value: unknown = JSON.parse(text);
    // Checked by the schema, kept in its wire form (dates as the server wrote them).
    if (directoryOutcomeSchema.safeParse(value).success) return value as DirectoryOutcome;
  } catch {
    // Not JSON: the same refusal as an unreadable outcome.
  }
  return { kind: 'refused', message: DIRECTORY_MESSAGES.danceFailed, back_to: 'sign_in' };
}
