import { Combobox, Group, InputBase, Loader, Text, useCombobox } from '@mantine/core';
import { useDebouncedValue, useId } from '@mantine/hooks';
import { MESSAGES, SEARCH_DEBOUNCE_MS, TEXT_LIMITS } from '@reformes/domain';
import { useInfiniteQuery } from '@tanstack/react-query';
import { type ReactNode, type Ref, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../api/api-error.ts';
import { type FetchPage, type ServerOption, serverSearchTerm } from './server-page.ts';

export interface ServerSelectProps<Item> {
  label: string;
  /** Start of the query key of the choices: invalidating it reloads them. */
  queryKey: readonly unknown[];
  fetchPage: FetchPage<Item>;
  toOption: (item: Item) => ServerOption;
  value: string | null;
  onChange: (value: string | null, option?: ServerOption) => void;
  /** The chosen item's label, when the caller knows it: the choice may be on no loaded page. */
  selectedLabel?: string;
  placeholder?: string;
  /** The placeholder when the server has no choice at all to offer. */
  emptyPlaceholder?: string;
  clearable?: boolean;
  withAsterisk?: boolean;
  error?: ReactNode;
  disabled?: boolean;
  onBlur?: () => void;
  inputRef?: Ref<HTMLInputElement>;
  maw?: number | string;
}

/** The value of the "Voir plus" option: ids are never empty. */
const MORE = '';
const count = new Intl.NumberFormat('fr-FR');

/**
 * A select whose choices the server searches and pages (lists too long to load whole: 100 000 reforms).
 * Typing asks the server after a pause; "Voir plus" loads the next page. The chosen label stays shown
 * whether or not it is on a loaded page.
 */
export function ServerSelect<Item>({
  label,
  queryKey,
  fetchPage,
  toOption,
  value,
  onChange,
  selectedLabel,
  placeholder,
  emptyPlaceholder,
  clearable = false,
  withAsterisk,
  error,
  disabled,
  onBlur,
  inputRef,
  maw,
}: ServerSelectProps<Item>) {
  const id = useId();
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  // What the user is typing; null while the input shows the chosen label.
  const [typed, setTyped] = useState<string | null>(null);
  const [chosen, setChosen] = useState<ServerOption>();
  const [debounced] = useDebouncedValue(typed ?? '', SEARCH_DEBOUNCE_MS);
  // Once a choice is made or the field left, back to the first page at once.
  const term = typed === null ? '' : serverSearchTerm(debounced);

  const pages = useInfiniteQuery({
    queryKey: [...queryKey, 'server-select', term],
    queryFn: ({ pageParam, signal }) => fetchPage(term, pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.current_page < last.last_page ? last.current_page + 1 : undefined),
    enabled: !disabled,
    // Reopening the list does not ask again for a while; invalidating the key still does.
    staleTime: 30_000,
  });

  // Pages can overlap when rows are added meanwhile: each choice once.
  const options = [...new Map((pages.data?.pages ?? []).flatMap((page) => page.data.map(toOption)).map((o) => [o.value, o])).values()];
  const total = pages.data?.pages.at(-1)?.total ?? 0;
  const waiting = pages.isPending || serverSearchTerm(typed ?? '') !== term;

  const chosenLabel =
    value === null
      ? ''
      : (selectedLabel ?? (chosen?.value === value ? chosen.label : options.find((option) => option.value === value)?.label) ?? '');

  // After "Voir plus", the keyboard goes on from the first new choice.
  const nextIndex = useRef<number>(undefined);
  useEffect(() => {
    if (nextIndex.current !== undefined && options.length > nextIndex.current) {
      combobox.selectOption(nextIndex.current);
      nextIndex.current = undefined;
    }
  });

  const submit = (optionValue: string) => {
    if (optionValue === MORE) {
      nextIndex.current = options.length;
      void pages.fetchNextPage();
      return;
    }
    const option = options.find((row) => row.value === optionValue);
    setChosen(option);
    setTyped(null);
    combobox.closeDropdown();
    onChange(optionValue, option);
  };

  const leave = () => {
    combobox.closeDropdown();
    // Emptying the text and leaving clears the choice, without the mouse.
    if (clearable && typed?.trim() === '' && value !== null) onChange(null);
    setTyped(null);
    onBlur?.();
  };

  const scopeIsEmpty = pages.isSuccess && term === '' && total === 0;
  const showClear = clearable && value !== null && !disabled;

  return (
    <Combobox store={combobox} onOptionSubmit={submit}>
      <Combobox.Target withExpandedAttribute>
        <InputBase
          id={id}
          label={label}
          withAsterisk={withAsterisk}
          error={error}
          disabled={disabled}
          maw={maw}
          ref={inputRef}
          placeholder={scopeIsEmpty && emptyPlaceholder ? emptyPlaceholder : placeholder}
          maxLength={TEXT_LIMITS.search}
          value={typed ?? chosenLabel}
          onChange={(event) => {
            setTyped(event.currentTarget.value);
            combobox.resetSelectedOption();
            combobox.openDropdown();
          }}
          onFocus={(event) => {
            // Typing replaces the chosen label rather than extending it; after the click that placed the caret.
            const input = event.currentTarget;
            window.setTimeout(() => document.activeElement === input && input.select(), 0);
            combobox.openDropdown();
          }}
          onClick={() => combobox.openDropdown()}
          onBlur={leave}
          rightSection={
            // As Mantine's Select shows them: the clear button beside the chevron.
            <Group gap={0} wrap="nowrap">
              {showClear && (
                <Combobox.ClearButton
                  onClear={() => {
                    setTyped(null);
                    onChange(null);
                  }}
                />
              )}
              <Combobox.Chevron />
            </Group>
          }
          rightSectionWidth={showClear ? 52 : undefined}
          rightSectionPointerEvents={showClear ? 'all' : 'none'}
        />
      </Combobox.Target>
      <Combobox.Dropdown hidden={disabled}>
        <Combobox.Options labelledBy={`${id}-label`} mah={280} style={{ overflowY: 'auto' }}>
          {waiting ? (
            <Combobox.Empty>
              <Loader size="xs" mr="xs" aria-hidden />
              {MESSAGES.loading}
            </Combobox.Empty>
          ) : pages.isError ? (
            <Combobox.Empty c="red">{pages.error instanceof ApiError ? pages.error.message : MESSAGES.unknownError}</Combobox.Empty>
          ) : options.length === 0 ? (
            <Combobox.Empty>{MESSAGES.nothingFound}</Combobox.Empty>
          ) : (
            <>
              {options.map((option) => (
                <Combobox.Option
                  key={option.value}
                  value={option.value}
                  active={option.value === value}
                  aria-selected={option.value === value}
                >
                  {option.label}
                </Combobox.Option>
              ))}
              {pages.hasNextPage && (
                <Combobox.Option value={MORE} disabled={pages.isFetchingNextPage} fw={600} c="blue">
                  {pages.isFetchingNextPage ? MESSAGES.loading : 'Voir plus'}
                </Combobox.Option>
              )}
            </>
          )}
        </Combobox.Options>
        {!waiting && options.length < total && (
          <Combobox.Footer>
            <Text size="xs" c="dimmed" role="status">
              {count.format(options.length)} sur {count.format(total)} — précisez la recherche
            </Text>
          </Combobox.Footer>
        )}
      </Combobox.Dropdown>
    </Combobox>
  );
}
