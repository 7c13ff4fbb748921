import { createFileRoute } from '@tanstack/react-router';
import { CreateCampaign } from '../../screens/CreateCampaign.js';

export const Route = createFileRoute('/_authed/createCampaign')({
  component: CreateCampaign,
});
