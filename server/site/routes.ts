import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../context.js';
import { SiteConfig } from '../../common/api/site.js';

/** Public facts about this server that the PWA shows (the footer's contact address). */
export async function registerSite(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const body: SiteConfig = { contactEmail: ctx.config.contactEmail ?? null };
  app
    .withTypeProvider<TypeBoxTypeProvider>()
    .get('/api/v1/config', { config: { access: 'public' }, schema: { response: { 200: SiteConfig } } }, async (_request, reply) => {
      // Fixed for the life of the process; a short cache spares a request per page load.
      reply.header('Cache-Control', 'public, max-age=300');
      return body;
    });
}
