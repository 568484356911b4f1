/** The giveaway's active-keys picker (giveaway-page.tsx loads it beside the page). */
import Select, { type StylesConfig } from 'react-select';
import { darkSelectStyles, selectDefaults } from '../../components/ui/user-select';

type KeyOption = { value: string; label: string };

export default function KeysSelect({
  options,
  value,
  onChange,
}: {
  options: KeyOption[];
  value: KeyOption[];
  onChange(keys: string[]): void;
}) {
  return (
    <Select<KeyOption, true>
      {...selectDefaults}
      isMulti
      inputId="giveaway-keys"
      aria-label="Active keys"
      classNamePrefix="kb-select"
      styles={darkSelectStyles as unknown as StylesConfig<KeyOption, true>}
      options={options}
      value={value}
      onChange={(v) => onChange(v.map((o) => o.value))}
    />
  );
}
