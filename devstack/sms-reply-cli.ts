#!/usr/bin/env node
// `npm run sms:reply -- <phone> <text...>`: replies to a reminder from the console as the phone would,
// to the inbound SMS webhook of the `npm start` running with the same PORT and DATA_DIR
// (docs/development.md#replying-to-a-reminder-by-sms). Prints the webhook's answer, then the SMS the
// platform sent back (from the SMS folder outbox).
import { loadConfig } from '../config';
import { FolderSmsSender } from '../integrations/sms/sms-sender';
import { devSmsReplySecret, sendSandboxReply } from './sms-sandbox';

async function main(): Promise<void> {
  const [phone, ...words] = process.argv.slice(2);
  if (!phone || words.length === 0) {
    console.error('usage: npm run sms:reply -- <phone, e.g. +4791234567> <text, e.g. JA>');
    process.exit(2);
  }
  const config = loadConfig();
  const secret = devSmsReplySecret(config.dataDir, config.smsReplySecret);
  const before = (await new FolderSmsSender(config.smsOutboxDir).sentTo(phone)).length;
  const answer = await sendSandboxReply(`http://127.0.0.1:${config.port}/api/webhooks/sms/sveve`, secret, phone, words.join(' '));
  console.log(`HTTP ${answer.status}`, JSON.stringify(answer.body));
  const after = await new FolderSmsSender(config.smsOutboxDir).sentTo(phone);
  for (const m of after.slice(before)) console.log(`SMS to ${m.to}: ${m.text}`);
  process.exit(answer.status < 300 ? 0 : 1);
}

void main();
