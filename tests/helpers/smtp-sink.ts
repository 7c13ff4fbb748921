import net from 'node:net';

// A tiny SMTP server on loopback for the tests: it takes every message (or refuses the recipient
// when told to) and keeps what it received, as a mail relay would see it. No mail package is among
// the dependencies; this speaks just what server/teams/mail.ts sends.

export interface ReceivedMail {
  /** The AUTH PLAIN user and password, when the client signed in. */
  auth: { user: string; password: string } | null;
  from: string;
  to: string[];
  /** The message as sent, dot-stuffing undone, CRLF line ends. */
  data: string;
}

export interface SmtpSink {
  port: number;
  url: (credentials?: string) => string;
  received: ReceivedMail[];
  /** When set, RCPT TO answers 550 (the send fails). */
  refuseRecipients: boolean;
  close: () => Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  const sockets = new Set<net.Socket>();
  const sink: SmtpSink = {
    port: 0,
    url: (credentials) => `smtp://${credentials ? `${credentials}@` : ''}127.0.0.1:${sink.port}`,
    received,
    refuseRecipients: false,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffer = '';
    let inData = false;
    let data: string[] = [];
    let mail: ReceivedMail = { auth: null, from: '', to: [], data: '' };
    const reply = (line: string) => socket.write(`${line}\r\n`);
    const command = (line: string) => {
      const verb = line.split(/[ :]/)[0].toUpperCase();
      if (verb === 'EHLO') return reply('250-sink.test\r\n250-8BITMIME\r\n250 AUTH PLAIN');
      if (verb === 'AUTH') {
        const [, user = '', password = ''] = Buffer.from(line.split(' ')[2] ?? '', 'base64')
          .toString('utf8')
          .split('\0');
        mail.auth = { user, password };
        return reply('235 2.7.0 Authenticated');
      }
      if (verb === 'MAIL') {
        mail.from = /<([^>]*)>/.exec(line)?.[1] ?? '';
        return reply('250 OK');
      }
      if (verb === 'RCPT') {
        if (sink.refuseRecipients) return reply('550 5.1.1 No such mailbox');
        mail.to.push(/<([^>]*)>/.exec(line)?.[1] ?? '');
        return reply('250 OK');
      }
      if (verb === 'DATA') {
        inData = true;
        data = [];
        return reply('354 End data with <CR><LF>.<CR><LF>');
      }
      if (verb === 'QUIT') {
        reply('221 Bye');
        return socket.end();
      }
      return reply('502 Command not implemented');
    };
    const dataLine = (line: string) => {
      if (line !== '.') return void data.push(line.startsWith('.') ? line.slice(1) : line);
      inData = false;
      received.push({ ...mail, data: data.join('\r\n') });
      mail = { auth: mail.auth, from: '', to: [], data: '' };
      reply('250 OK queued');
    };
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (let end = buffer.indexOf('\r\n'); end >= 0; end = buffer.indexOf('\r\n')) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (inData) dataLine(line);
        else command(line);
      }
    });
    reply('220 sink.test ESMTP');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  sink.port = (server.address() as net.AddressInfo).port;
  return sink;
}
