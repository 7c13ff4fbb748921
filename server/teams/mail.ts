import crypto from 'node:crypto';
import net from 'node:net';
import os from 'node:os';
import tls from 'node:tls';

// A minimal SMTP client (RFC 5321) for the invite e-mails of issue 37: no mail package is among
// the dependencies, and an invite needs one plain-text message to one address. SMTP_URL is
// smtp://[user:pass@]host[:port] (port 25 by default; a relay on the same host or network) or
// smtps://… (TLS from the start, port 465 by default). EHLO, AUTH PLAIN when the URL has a user,
// MAIL FROM, RCPT TO, DATA (dot-stuffed), QUIT; every reply waited for at most `timeoutMs`.

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** How long any one step (connecting, each reply) may take before the send is given up. */
export const SMTP_STEP_TIMEOUT_MS = 10_000;

/** An address the protocol can carry as it is: no line break, no angle bracket, no space. */
const SAFE_ADDRESS = /^[^\s<>@]+@[^\s<>@]+$/;

export class SmtpError extends Error {}

/** One SMTP reply: its code and its text (the lines of a multi-line reply joined). */
interface Reply {
  code: number;
  text: string;
}

/** Reads replies off the socket one at a time: a reply ends at a line whose code is followed by a space. */
class ReplyReader {
  private buffer = '';
  private lines: string[] = [];
  private waiting: ((reply: Reply | Error) => void) | null = null;
  private readonly ready: Reply[] = [];
  private failure: Error | null = null;

  constructor(socket: net.Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => this.take(chunk));
    socket.on('error', (error) => this.fail(error));
    socket.on('close', () => this.fail(new SmtpError('the SMTP server closed the connection')));
  }

  private take(chunk: string): void {
    this.buffer += chunk;
    for (let end = this.buffer.indexOf('\n'); end >= 0; end = this.buffer.indexOf('\n')) {
      const line = this.buffer.slice(0, end).replace(/\r$/, '');
      this.buffer = this.buffer.slice(end + 1);
      this.lines.push(line);
      if (/^\d{3}(?: |$)/.test(line)) {
        const reply = { code: Number(line.slice(0, 3)), text: this.lines.map((l) => l.slice(4)).join('\n') };
        this.lines = [];
        this.deliver(reply);
      }
    }
    if (this.buffer.length > 64 * 1024) this.fail(new SmtpError('the SMTP server sent an over-long line'));
  }

  private deliver(reply: Reply | Error): void {
    const waiting = this.waiting;
    this.waiting = null;
    if (waiting) waiting(reply);
    else if (!(reply instanceof Error)) this.ready.push(reply);
  }

  private fail(error: Error): void {
    if (this.failure) return;
    this.failure = error;
    this.deliver(error);
  }

  next(): Promise<Reply> {
    const ready = this.ready.shift();
    if (ready) return Promise.resolve(ready);
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.waiting = (reply) => (reply instanceof Error ? reject(reply) : resolve(reply));
    });
  }
}

/** The message as DATA carries it: headers, a blank line, the body; CRLF line ends, lines starting with a dot doubled. */
export function messageText(from: string, message: MailMessage, now = new Date()): string {
  const ascii = /^[\x20-\x7e\r\n\t]*$/.test(message.text);
  const body = ascii
    ? message.text
    : (Buffer.from(message.text, 'utf8')
        .toString('base64')
        .match(/.{1,76}/g)
        ?.join('\n') ?? '');
  const lines = [
    `From: Tapedeck <${from}>`,
    `To: <${message.to}>`,
    `Subject: ${encodedHeader(message.subject)}`,
    `Date: ${now.toUTCString().replace('GMT', '+0000')}`,
    `Message-ID: <${crypto.randomUUID()}@${from.split('@')[1]}>`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    `Content-Transfer-Encoding: ${ascii ? '7bit' : 'base64'}`,
    '',
    ...body.split(/\r?\n/),
  ];
  return lines.map((line) => (line.startsWith('.') ? `.${line}` : line)).join('\r\n');
}

/** A header value on one line; RFC 2047 base64 when it is not plain ASCII. */
function encodedHeader(value: string): string {
  const oneLine = value.replace(/[\r\n]+/g, ' ');
  return /^[\x20-\x7e]*$/.test(oneLine) ? oneLine : `=?utf-8?B?${Buffer.from(oneLine, 'utf8').toString('base64')}?=`;
}

function connect(target: URL, timeoutMs: number): Promise<net.Socket> {
  const secure = target.protocol === 'smtps:';
  const port = Number(target.port) || (secure ? 465 : 25);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve, reject) => {
    const socket = secure ? tls.connect({ host, port, servername: net.isIP(host) ? undefined : host }) : net.connect({ host, port });
    socket.setTimeout(timeoutMs, () => socket.destroy(new SmtpError(`the SMTP server did not answer within ${timeoutMs} ms`)));
    socket.once(secure ? 'secureConnect' : 'connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

/**
 * Sends one message through the SMTP server of `smtpUrl`. Rejects (SmtpError or the socket's
 * error) when the server refuses a step, closes or stays silent past `timeoutMs` at any step.
 */
export async function sendMail(smtpUrl: string, from: string, message: MailMessage, timeoutMs = SMTP_STEP_TIMEOUT_MS): Promise<void> {
  if (!SAFE_ADDRESS.test(from) || !SAFE_ADDRESS.test(message.to)) throw new SmtpError('an address SMTP cannot carry');
  const target = new URL(smtpUrl);
  const socket = await connect(target, timeoutMs);
  const replies = new ReplyReader(socket);
  const expect = async (codes: number[], step: string) => {
    const reply = await replies.next();
    if (!codes.includes(reply.code)) throw new SmtpError(`${step}: ${reply.code} ${reply.text}`.slice(0, 300));
    return reply;
  };
  const command = (line: string, codes: number[], step = line.split(' ')[0]) => {
    socket.write(`${line}\r\n`);
    return expect(codes, step);
  };
  try {
    await expect([220], 'greeting');
    await command(`EHLO ${os.hostname().replace(/[^A-Za-z0-9.-]/g, '') || 'localhost'}`, [250]);
    if (target.username) {
      const user = decodeURIComponent(target.username);
      const password = decodeURIComponent(target.password);
      await command(`AUTH PLAIN ${Buffer.from(`\0${user}\0${password}`, 'utf8').toString('base64')}`, [235], 'AUTH');
    }
    await command(`MAIL FROM:<${from}>`, [250], 'MAIL FROM');
    await command(`RCPT TO:<${message.to}>`, [250, 251], 'RCPT TO');
    await command('DATA', [354]);
    await command(`${messageText(from, message)}\r\n.`, [250], 'the message');
    socket.write('QUIT\r\n');
    await replies.next().catch(() => undefined);
  } finally {
    socket.destroy();
  }
}
