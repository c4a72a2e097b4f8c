import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SelectField } from '../src/ui/select-field';

afterEach(cleanup);

const STATUSES = ['draft', 'published'] as const;
const LABELS = { draft: 'Draft', published: 'Published' } as const;

function renderSelect(onChange: (value: (typeof STATUSES)[number]) => void) {
  render(
    <SelectField
      name="status"
      label="Status"
      value="draft"
      options={STATUSES}
      optionLabel={(status) => LABELS[status]}
      onChange={onChange}
    />,
  );
  return screen.getByLabelText('Status') as HTMLSelectElement;
}

describe('SelectField (the marketplace form, BF1)', () => {
  it('is labelled, offers each option with its words, and passes on the one chosen', () => {
    const onChange = vi.fn();
    const select = renderSelect(onChange);
    expect(select.name).toBe('status');
    expect([...select.options].map((option) => [option.value, option.text])).toEqual([
      ['draft', 'Draft'],
      ['published', 'Published'],
    ]);
    fireEvent.change(select, { target: { value: 'published' } });
    expect(onChange).toHaveBeenCalledWith('published');
  });

  it('passes on nothing it does not offer (a value forged in the DOM)', () => {
    const onChange = vi.fn();
    const select = renderSelect(onChange);
    const forged = document.createElement('option');
    forged.value = "published'; DROP TABLE blueprints; --";
    select.append(forged);
    fireEvent.change(select, { target: { value: forged.value } });
    expect(onChange).not.toHaveBeenCalled();
  });
});
