import { API_BASE } from '../../http/guard.ts';

/**
 * Spec §3 "chemin": the URL an attachment is read from, the route `GET files/:id` of files.routes.ts
 * (with the bearer token, within the reader's scope): `cheminOf(7)` is "/api/v1/files/7".
 */
export function cheminOf(fileId: number): string {
  return `${API_BASE}/files/${fileId}`;
}

/** An attachment as every answer carries it: its fields plus its `chemin`. */
export function withChemin<File extends { id: number }>(file: File): File & { chemin: string } {
  return { ...file, chemin: cheminOf(file.id) };
}
