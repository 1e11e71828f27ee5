import type { FastifyBaseLogger } from 'fastify';

export interface MailMessage { to: string; subject: string; text: string; html?: string }
export interface Mailer { send(message: MailMessage): Promise<void>; readonly configured: boolean }

/** SMTP when SMTP_URL is set; otherwise messages go to the server log (development, demo). */
export async function createMailer(smtpUrl: string | undefined, from: string, log: FastifyBaseLogger): Promise<Mailer> {
  if (!smtpUrl) {
    return {
      configured: false,
      async send(m) { log.info({ to: m.to, subject: m.subject, text: m.text }, 'mail (no SMTP configured)'); },
    };
  }
  const nodemailer = await import('nodemailer');
  const transport = nodemailer.default.createTransport(smtpUrl);
  return {
    configured: true,
    async send(m) { await transport.sendMail({ from, ...m }); },
  };
}
