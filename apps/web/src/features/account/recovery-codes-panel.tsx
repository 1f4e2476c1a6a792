import { Alert, Button, Code, Group, SimpleGrid, Stack } from '@mantine/core';
import { TWO_FACTOR_MESSAGES } from '@reformes/domain';
import { IconDownload } from '@tabler/icons-react';

/** The recovery codes, shown once (after enrolment or renewal), to note or download before going on. */
export function RecoveryCodesPanel({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <Stack>
      <Alert color="yellow" title="Codes de secours">
        {TWO_FACTOR_MESSAGES.recoveryIntro}
      </Alert>
      <SimpleGrid
        cols={{ base: 2, sm: 5 }}
        component="ul"
        aria-label="Codes de secours"
        style={{ listStyle: 'none', padding: 0, margin: 0 }}
      >
        {codes.map((recovery) => (
          <li key={recovery}>
            <Code fz="md">{recovery}</Code>
          </li>
        ))}
      </SimpleGrid>
      <Group>
        <Button variant="light" leftSection={<IconDownload size={16} aria-hidden />} onClick={() => downloadCodes(codes)}>
          Télécharger les codes
        </Button>
        <Button onClick={onDone}>J'ai conservé mes codes</Button>
      </Group>
    </Stack>
  );
}

function downloadCodes(codes: string[]) {
  const text = `Réformes : codes de secours de la double authentification (chacun ne sert qu'une fois)\n\n${codes.join('\n')}\n`;
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = 'reformes-codes-de-secours.txt';
  link.click();
  URL.revokeObjectURL(url);
}
