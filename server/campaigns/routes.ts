import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';

export async function registerCampaigns(app: FastifyInstance, ctx: AppContext): Promise<void> {
  void app;
  void ctx;
}
