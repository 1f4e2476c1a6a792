import { ActionIcon, Group, TextInput } from '@mantine/core';
import { TEXT_LIMITS } from '@reformes/domain';
import { IconSearch, IconX } from '@tabler/icons-react';
import type { AriaRole } from 'react';

interface SearchFieldProps {
  value: string;
  onChange: (value: string) => void;
  label?: string;
  placeholder?: string;
  type?: 'search';
  /** A button beside the box, named `resetLabel` ("Réinitialiser la recherche", "... les filtres"). */
  onReset?: () => void;
  resetLabel?: string;
  /** Compact: a small box whose clear button, named `clearLabel`, sits inside it while something is typed. */
  compact?: boolean;
  clearLabel?: string;
  /** For the box and its reset button when they are the whole search area (`role="search"`). */
  role?: AriaRole;
  'aria-label'?: string;
}

/** The search box of every list: "Rechercher", at most TEXT_LIMITS.search characters, and its reset button. */
export function SearchField({
  value,
  onChange,
  label = 'Rechercher',
  placeholder = 'Rechercher...',
  type,
  onReset,
  resetLabel,
  compact = false,
  clearLabel,
  role,
  'aria-label': ariaLabel,
}: SearchFieldProps) {
  const iconSize = compact ? 14 : 16;
  const clear =
    clearLabel && value ? (
      <ActionIcon variant="subtle" color="gray" size="sm" aria-label={clearLabel} onClick={() => onChange('')}>
        <IconX size={14} aria-hidden />
      </ActionIcon>
    ) : null;
  const input = (
    <TextInput
      label={label}
      type={type}
      placeholder={placeholder}
      size={compact ? 'xs' : undefined}
      leftSection={<IconSearch size={iconSize} aria-hidden />}
      maxLength={TEXT_LIMITS.search}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      rightSection={clear}
      style={onReset ? { flex: 1 } : undefined}
    />
  );
  if (!onReset) return input;
  return (
    <Group gap="xs" align="flex-end" wrap="nowrap" role={role} aria-label={ariaLabel}>
      {input}
      <ActionIcon variant="default" size="lg" aria-label={resetLabel} title={resetLabel} onClick={onReset}>
        <IconX size={18} aria-hidden />
      </ActionIcon>
    </Group>
  );
}
