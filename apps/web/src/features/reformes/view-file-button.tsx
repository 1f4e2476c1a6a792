import { Button } from '@mantine/core';
import { IconFileTypePdf } from '@tabler/icons-react';
import { useState } from 'react';
import { showApiError } from '../../components/show-api-error.tsx';
import { openFile } from './files-api.ts';
import type { ReformeFileRef } from './reformes-api.ts';

/** "voir fichier": opens the attachment's PDF in a new tab (read with the session's token). */
export function ViewFileButton({ file, label = 'voir fichier' }: { file: ReformeFileRef; label?: string }) {
  const [opening, setOpening] = useState(false);
  const open = async () => {
    setOpening(true);
    try {
      await openFile(file.id);
    } catch (error) {
      showApiError(error, 'Fichiers joints');
    } finally {
      setOpening(false);
    }
  };
  return (
    <Button
      variant="subtle"
      size="compact-sm"
      leftSection={<IconFileTypePdf size={16} aria-hidden />}
      loading={opening}
      onClick={open}
      aria-label={`${label} : ${file.name_file}`}
    >
      {label}
    </Button>
  );
}
