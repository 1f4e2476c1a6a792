/** A fake server's paged answer `{message, isPaginate: true, data: {data, current_page, per_page, total, last_page}}`. */
export function pagedAnswer<Row>(rows: Row[], page: number, perPage: number) {
  return {
    message: 'ok',
    isPaginate: true as const,
    data: {
      data: rows.slice((page - 1) * perPage, page * perPage),
      current_page: page,
      per_page: perPage,
      total: rows.length,
      last_page: Math.max(1, Math.ceil(rows.length / perPage)),
    },
  };
}
