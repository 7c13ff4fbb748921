import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createErrorMessage } from '../api/campaigns.js';
import { deleteSegment, fetchSegments, renameSegment, saveSegment, segmentKeys } from '../api/segments.js';
import { filterParams, validateSessionFilters, type SessionFilters } from '../lib/sessionFilters.js';
import type { Segment } from '../../common/api/segments.js';
import { MAX_SEGMENT_NAME } from '../../common/segments.js';

// The sessions page's segments: a campaign's filters saved under a name. Picking one puts its
// filters in the URL (as any filter change does); "Save filters as…" saves the current ones.

interface SegmentPickerProps {
  campaignId: string;
  filters: SessionFilters;
  onFilters: (filters: SessionFilters) => void;
}

/** Whatever order their keys came in. */
const filterKey = (filters: SessionFilters) => {
  const params = filterParams(filters);
  params.sort();
  return params.toString();
};
const sameFilters = (a: SessionFilters, b: SessionFilters) => filterKey(a) === filterKey(b);

/** The segment whose filters are the current ones, if any. */
const currentSegment = (segments: Segment[], filters: SessionFilters) => segments.find((s) => sameFilters(validateSessionFilters(s.filters), filters));

const segmentsQuery = (campaignId: string) => ({
  queryKey: segmentKeys.campaign(campaignId),
  queryFn: () => fetchSegments(campaignId),
  enabled: Boolean(campaignId),
});

/** The saved segment whose filters are `filters`, if any (the list's chips name it). */
export function useCurrentSegment(campaignId: string, filters: SessionFilters): Segment | undefined {
  const list = useQuery(segmentsQuery(campaignId));
  return currentSegment(list.data?.segments ?? [], filters);
}

export function SegmentPicker({ campaignId, filters, onFilters }: SegmentPickerProps) {
  const queryClient = useQueryClient();
  const key = segmentKeys.campaign(campaignId);
  const list = useQuery(segmentsQuery(campaignId));
  const segments = list.data?.segments ?? [];
  const current = currentSegment(segments, filters);
  const [editing, setEditing] = useState<'save' | 'rename' | null>(null);
  const [name, setName] = useState('');
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });
  const write = useMutation({
    mutationFn: (action: () => Promise<unknown>) => action(),
    onSuccess: async () => {
      setEditing(null);
      await refresh();
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const text = name.trim();
    if (!text) return;
    write.mutate(() => (editing === 'rename' && current ? renameSegment(campaignId, current.id, text) : saveSegment(campaignId, text, filters)));
  };
  const startEditing = (mode: 'save' | 'rename') => {
    write.reset();
    setName(mode === 'rename' && current ? current.name : '');
    setEditing(mode);
  };

  return (
    <div className="segments" role="group" aria-label="Segments">
      <label className="filter" htmlFor="segment-pick">
        <span>Segment</span>
        <select
          id="segment-pick"
          className="input input-small"
          value={current?.id ?? ''}
          onChange={(e) => {
            const picked = segments.find((s) => s.id === e.target.value);
            onFilters(picked ? validateSessionFilters(picked.filters) : {});
          }}
        >
          <option value="">{segments.length ? 'Choose a segment' : 'No saved segments'}</option>
          {segments.map((segment) => (
            <option key={segment.id} value={segment.id}>
              {segment.name}
            </option>
          ))}
        </select>
      </label>
      <button type="button" className="button button-secondary button-small" onClick={() => startEditing('save')}>
        Save filters as…
      </button>
      {current && (
        <>
          <button type="button" className="button button-secondary button-small" onClick={() => startEditing('rename')}>
            Rename
          </button>
          <button
            type="button"
            className="button button-danger button-small"
            disabled={write.isPending}
            onClick={() => write.mutate(() => deleteSegment(campaignId, current.id))}
          >
            Delete segment
          </button>
        </>
      )}
      {editing && (
        <form className="segment-form" onSubmit={submit}>
          <label className="filter" htmlFor="segment-name">
            <span>{editing === 'rename' ? 'New name' : 'Segment name'}</span>
            <input
              id="segment-name"
              className="input input-small"
              maxLength={MAX_SEGMENT_NAME}
              value={name}
              onChange={(e) => setName(e.target.value)}
              autoFocus
            />
          </label>
          <button type="submit" className="button button-primary button-small" disabled={write.isPending || !name.trim()}>
            {editing === 'rename' ? 'Rename' : 'Save'}
          </button>
          <button type="button" className="button button-secondary button-small" onClick={() => setEditing(null)}>
            Cancel
          </button>
        </form>
      )}
      {write.isError && (
        <p role="alert" className="error-text small">
          {createErrorMessage(write.error, 'Failed to save the segment')}
        </p>
      )}
    </div>
  );
}
