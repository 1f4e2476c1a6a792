import { zodResolver } from '@hookform/resolvers/zod';
import { reformeSchema, sectorSchema, structureSchema, TEXT_LIMITS, textLimitOf, tooLongMessage } from '@reformes/domain';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useForm } from 'react-hook-form';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { renderWithProviders } from '../test/render-app.tsx';
import { EntityFormModal } from './list-page/entity-form-modal.tsx';
import { LongTextField } from './long-text-field.tsx';

const plain = (text: string | null | undefined) => (text ?? '').replace(/[\u00a0\u202f]/g, ' ');

const difficultSchema = z.object({ difficult: reformeSchema.shape.difficult });

function DifficultForm({ initial = '' }: { initial?: string }) {
  const {
    control,
    formState: { errors },
  } = useForm({ resolver: zodResolver(difficultSchema), mode: 'all', defaultValues: { difficult: initial } });
  return (
    <LongTextField
      control={control}
      name="difficult"
      label="Difficultés"
      maxLength={textLimitOf(reformeSchema.shape.difficult)}
      error={errors.difficult?.message}
    />
  );
}

function renderForUser(ui: React.ReactNode) {
  const user = userEvent.setup({ delay: null });
  renderWithProviders(ui);
  return user;
}

describe('text limits in the forms (issue 14)', () => {
  it('stops a long text at the schema limit and counts what is used, "123 / 5 000"', async () => {
    const user = renderForUser(<DifficultForm initial={'x'.repeat(120)} />);
    const field = screen.getByRole('textbox', { name: 'Difficultés' });
    expect(field).toHaveAttribute('maxlength', String(TEXT_LIMITS.longText));
    expect(plain(screen.getByText(/\/ 5/).textContent)).toBe('120 / 5 000');
    // The counter describes the field to assistive technologies.
    expect(field).toHaveAccessibleDescription(/120 \/ 5\s000/);

    await user.type(field, 'abc');
    expect(plain(screen.getByText(/\/ 5/).textContent)).toBe('123 / 5 000');
  });

  it('never lets the browser type beyond the limit', async () => {
    const user = renderForUser(<DifficultForm initial={'x'.repeat(TEXT_LIMITS.longText - 2)} />);
    const field = screen.getByRole('textbox', { name: 'Difficultés' });
    await user.type(field, 'abcdef');
    expect((field as HTMLTextAreaElement).value).toHaveLength(TEXT_LIMITS.longText);
    expect(plain(screen.getByText(/\/ 5/).textContent)).toBe('5 000 / 5 000');
  });

  it('gives every text input of a list form the limit its domain schema declares', () => {
    renderForUser(
      <EntityFormModal
        opened
        title="Enregistrer une structure"
        schema={structureSchema}
        fields={[
          { name: 'designation', label: 'Libellé' },
          { name: 'email', label: 'Email', kind: 'email' },
          { name: 'telephone', label: 'Téléphone', kind: 'tel' },
        ]}
        saving={false}
        onSubmit={vi.fn()}
        onClose={vi.fn()}
      />,
    );
    expect(screen.getByRole('textbox', { name: 'Libellé' })).toHaveAttribute('maxlength', '255');
    expect(screen.getByRole('textbox', { name: 'Email' })).toHaveAttribute('maxlength', '254');
    expect(screen.getByRole('textbox', { name: 'Téléphone' })).toHaveAttribute('maxlength', '20');
  });

  it('shows the French message of the schema when a pasted label is longer than the limit', async () => {
    const user = renderForUser(
      <EntityFormModal
        opened
        title="Enregistrer un secteur"
        schema={sectorSchema}
        fields={[{ name: 'libsecteur', label: 'Libellé' }]}
        saving={false}
        onSubmit={vi.fn()}
        onClose={vi.fn()}
      />,
    );
    const field = screen.getByRole('textbox', { name: 'Libellé' });
    // A script (or an old browser) may bypass maxlength: the schema still refuses, in French.
    field.removeAttribute('maxlength');
    await user.click(field);
    await user.paste('a'.repeat(256));
    expect(await screen.findByText(tooLongMessage(255))).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Enregistrer' })).toBeDisabled();
  });
});
