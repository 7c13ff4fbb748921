import { useNavigate } from '@tanstack/react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { campaignKeys, campaignsQueryOptions, updateCampaign } from '../api/campaigns.js';
import { campaignForm, toUpdatePayload } from '../lib/createForm.js';
import type { Campaign } from '../../common/api-types.js';
import { ErrorBox } from '../components/ErrorBox.js';
import { Spinner } from '../components/Spinner.js';
import { CampaignFormPage } from './CampaignForm.js';
import { useCampaignPermissions } from '../lib/permissions.js';

/** Where the edit form was opened from, and so where it goes back to. */
export type EditReturn = 'dashboard' | 'sessions';

export function EditCampaign({ campaignId, from }: { campaignId: string; from: EditReturn }) {
  const campaigns = useQuery(campaignsQueryOptions());
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const back = () => (from === 'sessions' ? navigate({ to: '/campaign/$campaignId', params: { campaignId } }) : navigate({ to: '/dashboard' }));
  const campaign = campaigns.data?.find((c) => c.id === campaignId);
  const cantManage = useCampaignPermissions(campaignId).refusal('campaigns.manage');

  if (!campaign || cantManage) {
    return (
      <div className="page page-narrow">
        <div className="page-header">
          <h1>Edit Campaign</h1>
        </div>
        {cantManage ? (
          <ErrorBox title={cantManage} />
        ) : campaigns.isPending ? (
          <Spinner />
        ) : (
          <ErrorBox title={campaigns.isError ? 'Failed to load campaign.' : 'Campaign not found'} />
        )}
      </div>
    );
  }
  return (
    <CampaignFormPage
      key={campaign.id}
      title="Edit Campaign"
      initial={campaignForm(campaign)}
      submitLabel="Save Changes"
      sendingLabel="Saving Changes..."
      failedText="Failed to save campaign."
      backLabel={from === 'sessions' ? 'Back to Sessions' : 'Back to Dashboard'}
      onBack={() => void back()}
      save={async (form, opened) => {
        const changes = toUpdatePayload(form, opened);
        if (Object.keys(changes).length > 0) {
          const saved = await updateCampaign(campaign.id, changes);
          // The lists show the saved campaign at once, then refetch.
          queryClient.setQueryData<Campaign[]>(campaignKeys.list(), (list) => list?.map((c) => (c.id === saved.id ? saved : c)));
          await queryClient.invalidateQueries({ queryKey: campaignKeys.all });
        }
        await back();
      }}
    />
  );
}
