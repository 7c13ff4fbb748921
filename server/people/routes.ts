import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../context.js';
import { Erased, PeoplePage, PeopleParams, PeopleQuery, Person, PersonParams, PersonQuery, PERSON_NOT_FOUND } from '../../common/api/people.js';
import { currentUserId, requireUser } from '../auth/tokens.js';
import { badRequest, notFound } from '../http/errors.js';
import { audit } from '../teams/audit.js';
import { storable } from '../../common/scrub.js';
import { ownedCampaign } from '../campaigns/ownership.js';
import { erasePerson, findPerson, subjectDigest } from './repository.js';
import { listPeople } from './directory.js';

const PATH = '/api/v1/people/:campaignId/:userId';

/** An id as stored ids are (common/session-facts.ts keeps them storable): another can match nothing, and PostgreSQL refuses a NUL. */
function personId(userId: string): string {
  if (storable(userId) !== userId) throw badRequest('Invalid user id');
  return userId;
}

/**
 * A person of a campaign, by the id the page identified them with: GET answers their sessions,
 * traits, tags and events (with ?download=true as a file: a data-subject access export), DELETE
 * erases all of it; the directory lists them. Owner only, as every campaign call: 403 for another owner's campaign.
 */
export async function registerPeople(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  // The directory: a page of the campaign's people, searched by id prefix or trait (server/people/directory.ts).
  api.get(
    '/api/v1/people/:campaignId/',
    {
      config: { permission: 'sessions.watch' },
      preHandler: requireUser(ctx),
      schema: { params: PeopleParams, querystring: PeopleQuery, response: { 200: PeoplePage } },
    },
    async (request, reply) => {
      const campaign = await ownedCampaign(ctx.db, request, request.params.campaignId);
      reply.header('cache-control', 'private, no-store');
      return listPeople(ctx.db, campaign.id, request.query);
    },
  );

  api.get(
    PATH,
    {
      config: { permission: 'sessions.watch' },
      preHandler: requireUser(ctx),
      schema: { params: PersonParams, querystring: PersonQuery, response: { 200: Person } },
    },
    async (request, reply) => {
      const campaign = await ownedCampaign(ctx.db, request, request.params.campaignId);
      const person = await findPerson(ctx.db, campaign.id, personId(request.params.userId));
      if (!person) throw notFound(PERSON_NOT_FOUND);
      reply.header('cache-control', 'private, no-store');
      // The file's name carries no part of the id (it may be an e-mail address): a short keyed hash tells files apart.
      if (request.query.download)
        reply.header('content-disposition', `attachment; filename="tapedeck-person-${subjectDigest(ctx.peopleKey, person.userId).slice(0, 12)}.json"`);
      return person;
    },
  );

  api.delete(
    PATH,
    { config: { permission: 'data.erase' }, preHandler: requireUser(ctx), schema: { params: PersonParams, response: { 200: Erased } } },
    async (request) => {
      const campaign = await ownedCampaign(ctx.db, request, request.params.campaignId);
      const erased = await erasePerson(ctx.db, campaign.id, personId(request.params.userId), { erasedBy: currentUserId(request), peopleKey: ctx.peopleKey });
      for (const sessionId of erased) ctx.live.sessionChanged(campaign.id, sessionId);
      // The person's id is the visitor's: the entry names the campaign and how many sessions went.
      await audit(ctx.db, request, campaign.workspace_id, { action: 'person.erased', target: `campaign:${campaign.id}`, after: { sessions: erased.length } });
      return { erased: erased.length };
    },
  );
}
