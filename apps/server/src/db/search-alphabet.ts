/** Accented letters and their plain forms: the database and the search compare texts folded this way. */
export const SEARCH_ACCENTED = 'àáâãäåçèéêëìíîïñòóôõöùúûüýÿ';
export const SEARCH_PLAIN = 'aaaaaaceeeeiiiinooooouuuuyy';
