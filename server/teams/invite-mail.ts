import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import { sendMail, type MailMessage } from './mail.js';

// Where SMTP is configured (SMTP_URL), an invite's link is also e-mailed to the invited address;
// without it nothing is sent and the admin copies the link. A failed send never fails the invite:
// it is logged, and the answer says `emailed: false`, so the admin copies the link instead.

export interface InviteMail {
  to: string;
  url: string;
  workspaceName: string;
  role: string;
  invitedBy: string | null;
  expiresAt: number;
}

/** The e-mail of an invite: the link, who it is for, until when. */
export function inviteMessage(invite: InviteMail): MailMessage {
  const who = invite.invitedBy ?? 'An admin';
  const until = new Date(invite.expiresAt).toUTCString();
  return {
    to: invite.to,
    subject: `Invitation to the workspace "${invite.workspaceName}" on Tapedeck`,
    text: [
      `${who} invites you to the workspace "${invite.workspaceName}" on Tapedeck, as ${invite.role}.`,
      '',
      `Open this link to join. It works once, only for ${invite.to}, until ${until}:`,
      '',
      invite.url,
      '',
      'If you did not expect this invitation, ignore this e-mail.',
    ].join('\n'),
  };
}

/** E-mails the invite where SMTP is configured; answers whether it was sent (false without SMTP or on a failure, which is logged). */
export async function mailInvite(config: Pick<Config, 'smtp'>, log: FastifyBaseLogger, invite: InviteMail): Promise<boolean> {
  if (!config.smtp) return false;
  try {
    await sendMail(config.smtp.url, config.smtp.from, inviteMessage(invite));
    return true;
  } catch (error) {
    log.warn({ err: error }, 'the invite could not be e-mailed; the admin copies its link');
    return false;
  }
}
