import { useId } from 'react';

/**
 * A labelled select of fixed choices. Only a value it offers is passed on, so the caller gets its own type
 * back without a cast.
 */
export function SelectField<V extends string>({
  name,
  label,
  value,
  options,
  optionLabel,
  onChange,
  compact = false,
}: {
  name: string;
  label: string;
  value: V;
  options: readonly V[];
  optionLabel: (option: V) => string;
  onChange: (value: V) => void;
  /** The small form of a dense row (a dialog's inline form). */
  compact?: boolean;
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <select
        id={id}
        name={name}
        className={compact ? 'select select-sm w-36' : 'select w-full'}
        value={value}
        onChange={(event) => {
          const chosen = options.find((option) => option === event.target.value);
          if (chosen !== undefined) onChange(chosen);
        }}
      >
        {options.map((option) => (
          <option key={option} value={option}>
            {optionLabel(option)}
          </option>
        ))}
      </select>
    </div>
  );
}
