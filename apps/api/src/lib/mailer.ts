import type { FastifyBaseLogger } from 'fastify';

export interface MailAttachment { filename: string; content: Buffer; contentType: string }
export interface MailMessage { to: string; subject: string; text: string; html?: string; attachments?: MailAttachment[] }
export interface Mailer { send(message: MailMessage): Promise<void>; readonly configured: boolean }

/** SMTP when SMTP_URL is set; otherwise messages go to the server log (development, demo). */
export async function createMailer(smtpUrl: string | undefined, from: string, log: FastifyBaseLogger): Promise<Mailer> {
  if (!smtpUrl) {
    return {
      configured: false,
      async send(m) { log.info({ to: m.to, subject: m.subject, text: m.text, attachments: m.attachments?.map((a) => a.filename) }, 'mail (no SMTP configured)'); },
    };
  }
  const nodemailer = await import('nodemailer');
  const transport = nodemailer.default.createTransport(smtpUrl);
  return {
    configured: true,
    async send(m) { await transport.sendMail({ from, ...m }); },
  };
}
