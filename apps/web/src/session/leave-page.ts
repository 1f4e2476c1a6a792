/**
 * Leaving for another document: a public screen is a page of the server's own, without React (issue 34), so the
 * back office and the sign-in page reach each other by loading the other's page. A test replaces `to`.
 */
export const leavePage = {
  to(url: string): void {
    window.location.replace(url);
  },
};
