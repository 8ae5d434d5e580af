// Replies to reminders by SMS (docs/rules/reminders.md#answering-by-sms): the SMS gateway's inbound
// callback. Public and secret-protected (`key`), in Sveve's format, GET or POST. Thin: the key, the
// gateway's fields, one domain call, the envelope. And the salon's notices for its owner.
import { Router, type Request, type Response } from 'express';
import type { AppDeps } from '../deps';
import { sendData, sendPage } from '../envelope';
import { errors } from '../../domain/errors';
import { checkReplyKey, receiveSmsReply, smsReplyAck, sveveInbound } from '../../domain/notifications/sms-reply.service';
import { requireRole } from '../middleware/require-role';
import { tenantOf } from '../request-context';
import { listSalonNotices, markSalonNoticeRead } from '../../domain/notifications/salon-notice.service';
import { nowOf } from '../../domain/time/clock';

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

  // what the salon's owner is told (docs/rules/front-desk.md#the-salon-is-told)
  router.get('/salon-notices', requireRole('OWNER'), async (req, res) => {
    const q = req.query as { page?: string; limit?: string; unread?: string | boolean };
    const unread = q.unread === undefined ? undefined : String(q.unread) === 'true';
    sendPage(res, await listSalonNotices(deps.knex, tenantOf(req), { page: Number(q.page ?? 1), limit: Number(q.limit ?? 20), unread }));
  });

  router.post('/salon-notices/:id/read', requireRole('OWNER'), async (req, res) => {
    sendData(res, await markSalonNoticeRead(deps.knex, tenantOf(req), String(req.params.id), nowOf(deps)));
  });
  return router;
}
