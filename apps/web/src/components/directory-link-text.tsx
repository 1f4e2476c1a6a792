import { Text } from '@mantine/core';
import { type CurrentUser, DIRECTORY_MESSAGES, dateTime } from '@reformes/domain';

/** A user's directory identity in words: the provider, the identifier there, since when; or « not linked ». */
export function DirectoryLinkText({ link }: { link: CurrentUser['directory_link'] }) {
  if (!link) return <Text size="sm">{DIRECTORY_MESSAGES.notLinked}</Text>;
  return <Text size="sm">{`Lié à ${link.issuer}, identifiant ${link.subject}, depuis le ${dateTime(link.linked_at)}.`}</Text>;
}
