/**
 * The searchable user picker of the admin forms: react-select async with the contract's defaults
 * (preload, cache, "Select...", "No options", "Loading...", page size 5, menu heights 300/140),
 * backed by `GET /api/user/search` through the query cache. Failures are ignored (an empty list).
 */
import AsyncSelect from 'react-select/async';
import type { MultiValue, SingleValue, StylesConfig } from 'react-select';
import { userEndpoints, type UserOption } from '@kickback/common/http/users';
import { useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../lib/api';
import { endpointKey } from '../../lib/query';
import { Avatar } from './avatar';

export const selectDefaults = {
  placeholder: 'Select...',
  noOptionsMessage: () => 'No options',
  loadingMessage: () => 'Loading...',
  pageSize: 5,
  maxMenuHeight: 300,
  minMenuHeight: 140,
  cacheOptions: true,
  defaultOptions: true,
} as const;

/**
 * The search as server state: each (text, Discord-only) answer is cached under the endpoint's key,
 * shared by every picker on the page. A failure (its toast shown by the API wrapper) is an empty list.
 */
function useLoadUsers(discordLinkedOnly: boolean) {
  const client = useQueryClient();
  return async (text: string): Promise<UserOption[]> => {
    const input = { query: { query: text, ...(discordLinkedOnly ? { is_discord_linked: '1' as const } : {}) } };
    try {
      return await client.fetchQuery({
        queryKey: endpointKey(userEndpoints.search, input),
        queryFn: ({ signal }) => callEndpoint(userEndpoints.search, { ...input, signal }),
      });
    } catch {
      return [];
    }
  };
}

/** Dark styles matching the site. */
export const darkSelectStyles: StylesConfig<UserOption, boolean> = {
  control: (base, state) => ({
    ...base,
    background: '#0e1013',
    borderColor: state.isFocused ? 'var(--kb-accent)' : '#343a44',
    boxShadow: state.isFocused ? '0 0 0 1px var(--kb-accent)' : 'none',
    ':hover': { borderColor: 'var(--kb-accent)' },
  }),
  menu: (base) => ({ ...base, background: '#14171c', border: '1px solid #272c35', zIndex: 20 }),
  option: (base, state) => ({
    ...base,
    background: state.isFocused ? '#232831' : 'transparent',
    color: '#e8eaed',
  }),
  singleValue: (base) => ({ ...base, color: '#e8eaed' }),
  input: (base) => ({ ...base, color: '#e8eaed' }),
  placeholder: (base) => ({ ...base, color: '#a4abb6' }),
  multiValue: (base) => ({ ...base, background: '#232831' }),
  multiValueLabel: (base) => ({ ...base, color: '#e8eaed' }),
  noOptionsMessage: (base) => ({ ...base, color: '#a4abb6' }),
  loadingMessage: (base) => ({ ...base, color: '#a4abb6' }),
};

function formatOption(o: UserOption) {
  return (
    <span className="d-inline-flex align-items-center gap-2">
      <Avatar url={o.avatarUrl} size={20} />
      <span>{o.label}</span>
      {o.kickUsername && <small className="text-body-secondary">kick: {o.kickUsername}</small>}
    </span>
  );
}

interface CommonProps {
  inputId: string;
  discordLinkedOnly?: boolean;
  isDisabled?: boolean;
  isClearable?: boolean;
  'aria-label'?: string;
  /** Marks the select invalid; `aria-errormessage` names the element saying why. */
  'aria-invalid'?: boolean;
  'aria-errormessage'?: string;
}

export function UserSelect(
  props: CommonProps & { value: UserOption | null; onChange(value: UserOption | null): void },
) {
  const { discordLinkedOnly = false, onChange, ...rest } = props;
  const loadUsers = useLoadUsers(discordLinkedOnly);
  return (
    <AsyncSelect<UserOption, false>
      {...selectDefaults}
      {...rest}
      isClearable={props.isClearable ?? true}
      styles={darkSelectStyles as StylesConfig<UserOption, false>}
      loadOptions={loadUsers}
      formatOptionLabel={formatOption}
      onChange={(v: SingleValue<UserOption>) => onChange(v ?? null)}
    />
  );
}

export function UserMultiSelect(
  props: CommonProps & { value: readonly UserOption[]; onChange(value: UserOption[]): void },
) {
  const { discordLinkedOnly = false, onChange, ...rest } = props;
  const loadUsers = useLoadUsers(discordLinkedOnly);
  return (
    <AsyncSelect<UserOption, true>
      {...selectDefaults}
      {...rest}
      isMulti
      styles={darkSelectStyles as StylesConfig<UserOption, true>}
      loadOptions={loadUsers}
      formatOptionLabel={formatOption}
      onChange={(v: MultiValue<UserOption>) => onChange([...v])}
    />
  );
}
