import { MAX_BLOCK_SELECTOR, type ConsentMode, type PrivacyPreset } from '../../common/recording-rules.js';
import { campaignControls, type CampaignFormState } from './campaignControls.js';

// The campaign form's recording rules: what the tracker records on the site and what is kept of it.

const PRIVACY_LABELS: Record<PrivacyPreset, string> = {
  strict: 'Strict',
  balanced: 'Balanced',
  relaxed: 'Relaxed',
};
const CONSENT_LABELS: Record<ConsentMode, string> = { none: 'Not needed', required: 'Required' };

export function RecordingRulesFields(state: CampaignFormState) {
  const { input, lines, choices, field, checkbox } = campaignControls(state);
  return (
    <>
      <h2>Recording Rules</h2>
      <div className="form-row">
        {field('privacy', choices('privacy', Object.entries(PRIVACY_LABELS)))}
        {field('sampleRate', input('sampleRate', { type: 'number' }))}
      </div>
      {field('blockSelector', input('blockSelector', { maxLength: MAX_BLOCK_SELECTOR }))}
      <div className="form-row">
        {field('urlInclude', lines('urlInclude'))}
        {field('urlExclude', lines('urlExclude'))}
      </div>
      {field('minDurationSeconds', input('minDurationSeconds', { type: 'number' }))}
      <div className="form-row">
        {field('consent', choices('consent', Object.entries(CONSENT_LABELS)))}
        {field('consentBufferSeconds', input('consentBufferSeconds', { type: 'number' }))}
      </div>
      {checkbox('keepQuery')}
      {field('maskedParams', input('maskedParams'))}
    </>
  );
}
