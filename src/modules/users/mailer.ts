/**
 * Invitation e-mails (D91), sent through SMTP_URL with nodemailer when it is set. The message
 * holds the one-time link (the invited person's alone: the inviting admin does not see a link
 * that was sent), so it is never logged; a failure to send is logged without it (the
 * inviting admin still gets the link in the response and can pass it on). nodemailer is loaded
 * on the first invitation sent, not at start (docs/scaling.md "Memory").
 */
import type { Context } from '../../context.js';

export interface Invitation {
  to: string;
  workspaceName: string;
  invitedBy: string;
  url: string;
  expiresAt: string;
}

/** Sends the invitation; true when the SMTP server accepted it, false when SMTP is not configured or sending failed. */
export async function sendInvitation(ctx: Context, invitation: Invitation): Promise<boolean> {
  if (!ctx.config.smtpUrl) return false;
  const { default: nodemailer } = await import('nodemailer');
  const transport = nodemailer.createTransport(ctx.config.smtpUrl);
  try {
    await transport.sendMail({
      from: ctx.config.smtpFrom,
      to: invitation.to,
      subject: `You are invited to ${invitation.workspaceName} on Quire`,
      text: [
        `${invitation.invitedBy} invited you to the workspace "${invitation.workspaceName}" in the Quire Studio.`,
        '',
        'Open this link to accept (it works once, until ' + invitation.expiresAt + '):',
        invitation.url,
        '',
        'New to Quire on this server? The link lets you choose your password. Already have an account here? Sign in as this address and accept.',
        '',
        'If you did not expect this, ignore this message.',
      ].join('\n'),
    });
    return true;
  } catch (err) {
    // The error names the server and the refusal, never the message body (which holds the link).
    ctx.log.warn({ smtpError: err instanceof Error ? err.message : String(err) }, 'invitation e-mail not sent');
    return false;
  } finally {
    transport.close();
  }
}
