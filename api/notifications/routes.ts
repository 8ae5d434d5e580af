// Replies to reminders by SMS (docs/rules/reminders.md#answering-by-sms): the SMS gateway's inbound
// callback. Public and secret-protected (`key`), in Sveve's format, GET or POST. Thin: the key, the
// gateway's fields, one domain call, the envelope.
import { Router, type Request, type Response } from 'express';
import type { AppDeps } from '../deps';
import { sendData } from '../envelope';
import { errors } from '../../domain/errors';
import { checkReplyKey, receiveSmsReply, smsReplyAck, sveveInbound } from '../../domain/notifications/sms-reply.service';

export function notificationsRouter(deps: AppDeps): Router {
  const router = Router();
  const reply = async (req: Request, res: Response) => {
    const secret = deps.config.smsReplySecret;
    if (!secret) throw errors.notFound('route', 'SMS replies are off (set SMS_REPLY_SECRET)');
    const fields = { ...(req.query as Record<string, unknown>), ...((req.body ?? {}) as Record<string, unknown>) };
    checkReplyKey(fields.key, secret);
    if (!deps.sms) throw errors.unavailable('SMS_ANSWER_FAILED', 'No SMS gateway to answer with');
    const result = await receiveSmsReply(
      {
        bookings: { knex: deps.knex, signaller: deps.signaller, manageLinkKey: deps.config.keys.manageLink, now: deps.now, bookingHooks: deps.hooks.booking },
        sms: deps.sms,
        publicBaseUrl: deps.config.publicBaseUrl,
      },
      sveveInbound(fields),
    );
    // applied, but the answer did not go out: the gateway delivers the reply again and the answer follows
    if (!result.answered) throw errors.unavailable('SMS_ANSWER_FAILED', 'The reply was received; its answer could not be sent yet');
    sendData(res, smsReplyAck(result));
  };
  router.get('/webhooks/sms/sveve', reply);
  router.post('/webhooks/sms/sveve', reply);
  return router;
}
