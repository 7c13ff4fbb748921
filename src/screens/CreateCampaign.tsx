import { useState } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { campaignKeys, createCampaign } from '../api/campaigns.js';
import { newCampaignForm, toCreatePayload } from '../lib/createForm.js';
import { CampaignFormPage } from './CampaignForm.js';

/** Makes the campaign in the workspace the URL names (none: the account's personal one). */
export function CreateCampaign({ workspaceId }: { workspaceId?: string }) {
  const [initial] = useState(() => newCampaignForm(new Date()));
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const toDashboard = () => navigate({ to: '/dashboard', search: workspaceId ? { workspace: workspaceId } : {} });
  return (
    <CampaignFormPage
      title="Create Campaign"
      initial={initial}
      submitLabel="Create Campaign"
      sendingLabel="Creating Campaign..."
      failedText="Failed to create campaign."
      backLabel="Back to Dashboard"
      onBack={() => void toDashboard()}
      save={async (form) => {
        await createCampaign({ ...toCreatePayload(form), ...(workspaceId ? { workspace_id: workspaceId } : {}) });
        await queryClient.invalidateQueries({ queryKey: campaignKeys.all });
        await toDashboard();
      }}
    />
  );
}
