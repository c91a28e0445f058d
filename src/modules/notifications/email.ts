/**
 * Notification e-mails (docs/workflow.md "Notifications" (D132)), sent through SMTP_URL with
 * nodemailer when it is set, one message per notification, after the write that created them
 * committed. A failure is logged without the addresses or the text and never reaches the writer:
 * the notification stays in the Studio. nodemailer is loaded on the first message, not at start.
 */
import type { Context } from '../../context.js';
import type { Notification } from './model.js';

/** One message to send. */
export interface NotificationEmail {
  to: string;
  notification: Notification;
  /** The workspace's slug: Studio links start at `<PUBLIC_URL>/studio/<slug>`. */
  workspaceSlug: string;
}

/** The Studio page a notification points to (the item, the release, or the workspace). */
export function studioLink(publicUrl: string, workspaceSlug: string, n: Notification): string {
  const base = `${publicUrl.replace(/\/+$/, '')}/studio/${encodeURIComponent(workspaceSlug)}`;
  if (n.item?.kind === 'entry' && n.item.content_type) return `${base}/content/${encodeURIComponent(n.item.content_type)}/${encodeURIComponent(n.item.id)}`;
  if (n.item?.kind === 'page' && n.item.slug) return `${base}/pages/${encodeURIComponent(n.item.slug)}`;
  if (n.release) return `${base}/releases/${encodeURIComponent(n.release.id)}`;
  return base;
}

/** The subject line and text of a notification's message. */
export function emailText(n: Notification, link: string): { subject: string; text: string } {
  const who = n.actor ? (n.actor.name ?? n.actor.email) : 'Quire';
  const what = n.item?.title ?? n.item?.slug ?? n.release?.name ?? 'an item';
  const line = `${who} ${n.message}`;
  return {
    subject: `[Quire] ${line.length > 120 ? `${line.slice(0, 117)}...` : line}`,
    text: [line, '', `Open "${what}" in the Studio:`, link, '', 'You get these e-mails because you are a member of this workspace on Quire.'].join('\n'),
  };
}

/** Sends `emails` over one SMTP connection; never throws. */
export async function sendNotificationEmails(ctx: Pick<Context, 'config' | 'log'>, emails: readonly NotificationEmail[]): Promise<void> {
  if (!ctx.config.smtpUrl || emails.length === 0) return;
  try {
    const { default: nodemailer } = await import('nodemailer');
    const transport = nodemailer.createTransport(ctx.config.smtpUrl);
    try {
      for (const email of emails) {
        const { subject, text } = emailText(email.notification, studioLink(ctx.config.publicUrl, email.workspaceSlug, email.notification));
        try {
          await transport.sendMail({ from: ctx.config.smtpFrom, to: email.to, subject, text });
        } catch (err) {
          ctx.log.warn({ smtpError: err instanceof Error ? err.message : String(err), kind: email.notification.kind }, 'notification e-mail not sent');
        }
      }
    } finally {
      transport.close();
    }
  } catch (err) {
    ctx.log.warn({ smtpError: err instanceof Error ? err.message : String(err) }, 'notification e-mails not sent');
  }
}
