// The uploaded file's timeline (docs/rules/uploads.md#orphan-cleanup) on the time-skipping test server and the real database and
// storage: an orphan is deleted 24 h after creation, a linked file stays, an unconfirmed presigned
// upload goes when its window closes, and a file unlinked after 24 h goes at once.
import { expect } from 'chai';
import type { WorkflowHandleWithSignaledRunId } from '@temporalio/client';
import { stack } from '../support/stack';
import { unique } from '../support/factories';
import { salonWithRoles, type RoleSalon } from '../support/salon-roles';
import { png, uploadAs } from '../support/upload-files';
import { createActivities } from '../../activities';
import { FolderMailer } from '../../integrations/mail/mailer';
import { FolderSmsSender } from '../../integrations/sms/sms-sender';
import { uploadWorkflow, uploadEventSignal } from '../../workflows/upload/upload.workflow';
import { uploadContract, type UploadEvent } from '../../domain/upload/upload-events.rules';
import { platformWorker, withTimeSkipping } from './support/time-skipping';

type Signal = (fileId: string, tenantId: string, event: UploadEvent) => Promise<WorkflowHandleWithSignaledRunId<typeof uploadWorkflow>>;

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;

describe('upload workflow (time skipping, real database and storage)', function () {
  this.timeout(120_000);
  const t = withTimeSkipping();
  let s: RoleSalon;

  before(async () => {
    s = await salonWithRoles();
  });

  async function withWorker(scenario: (signal: Signal) => Promise<void>): Promise<void> {
    const { platform } = await stack();
    const taskQueue = unique('upload-wf');
    const dir = platform.deps.config.dataDir;
    const worker = await platformWorker(t, {
      taskQueue,
      activities: createActivities({
        knex: platform.knex,
        mailer: new FolderMailer(`${dir}/mail-upload-wf`),
        sms: new FolderSmsSender(`${dir}/sms-upload-wf`),
        storage: platform.deps.storage,
      }),
    });
    const signal: Signal = (fileId, tenantId, event) =>
      t.env.client.workflow.signalWithStart(uploadWorkflow, {
        workflowId: uploadContract.workflowId(fileId),
        taskQueue,
        args: [{ fileId, tenantId }],
        signal: uploadEventSignal,
        signalArgs: [event],
      });
    await worker.runUntil(scenario(signal));
  }

  /** The test server's clock runs ahead of the wall clock once a test skipped time: date the row by it. */
  async function createdNow(fileId: string): Promise<void> {
    const { platform } = await stack();
    const now = await t.env.currentTimeMs();
    const row = await platform.knex('uploaded_files').where({ id: fileId }).first();
    await platform
      .knex('uploaded_files')
      .where({ id: fileId })
      .update({ createdAt: new Date(now), expiresAt: row.expiresAt ? new Date(now + 300_000) : null });
  }

  async function state(file: { id: string; key: string }) {
    const { platform } = await stack();
    return { row: Boolean(await platform.knex('uploaded_files').where({ id: file.id }).first()), object: Boolean(await platform.deps.storage.head(file.key)) };
  }

  it('when an uploaded image is never linked then object and row are deleted 24 h after creation, not before', () =>
    withWorker(async (signal) => {
      const file = (await uploadAs(s.owner.token, 'SERVICE_IMAGE', await png())).body.data;
      await createdNow(file.id);
      const handle = await signal(file.id, s.tenant.id, { type: 'UploadCreated', entityVersion: 1 });
      await t.env.sleep(23 * HOUR);
      expect(await state(file)).to.deep.equal({ row: true, object: true });
      await t.env.sleep(2 * HOUR);
      await handle.result();
      expect(await state(file)).to.deep.equal({ row: false, object: false });
    }));

  it('when the image is linked to the tenant before 24 h then it stays', () =>
    withWorker(async (signal) => {
      const file = (await uploadAs(s.owner.token, 'TENANT_LOGO', await png())).body.data;
      await createdNow(file.id);
      const handle = await signal(file.id, s.tenant.id, { type: 'UploadCreated', entityVersion: 1 });
      await t.env.sleep(2 * HOUR);
      expect((await s.as('OWNER', 'patch', `/tenants/${s.tenant.id}`, { branding: { logoKey: file.key } })).status).to.equal(200);
      await signal(file.id, s.tenant.id, { type: 'UploadLinked', entityVersion: 2 });
      await handle.result();
      await t.env.sleep(48 * HOUR);
      expect(await state(file)).to.deep.equal({ row: true, object: true });
    }));

  it('when a presigned upload is never confirmed then the row and any object go when the 300 s window closes', () =>
    withWorker(async (signal) => {
      const pre = await s.as('OWNER', 'post', '/upload/presigned-put', { purpose: 'ONBOARDING_DOC', mimeType: 'application/pdf', sizeBytes: 500 });
      await fetch(pre.body.data.uploadUrl, { method: 'PUT', body: Buffer.alloc(500, 0x25), headers: pre.body.data.headers });
      const file = { id: pre.body.data.fileId as string, key: pre.body.data.key as string };
      await createdNow(file.id);
      const handle = await signal(file.id, s.tenant.id, { type: 'UploadCreated', entityVersion: 1 });
      await t.env.sleep(4 * MINUTE);
      expect(await state(file)).to.deep.equal({ row: true, object: true });
      await t.env.sleep(2 * MINUTE);
      await handle.result();
      expect(await state(file)).to.deep.equal({ row: false, object: false });
    }));

  it('when a file older than 24 h is unlinked (its logo replaced) then the new timeline deletes it at once', () =>
    withWorker(async (signal) => {
      const { platform } = await stack();
      const old = (await uploadAs(s.owner.token, 'TENANT_LOGO', await png())).body.data;
      const next = (await uploadAs(s.owner.token, 'TENANT_LOGO', await png())).body.data;
      expect((await s.as('OWNER', 'patch', `/tenants/${s.tenant.id}`, { branding: { logoKey: old.key } })).status).to.equal(200);
      await platform
        .knex('uploaded_files')
        .where({ id: old.id })
        .update({ createdAt: new Date((await t.env.currentTimeMs()) - 3 * 24 * HOUR) });
      expect((await s.as('OWNER', 'patch', `/tenants/${s.tenant.id}`, { branding: { logoKey: next.key } })).status).to.equal(200);
      const handle = await signal(old.id, s.tenant.id, { type: 'UploadUnlinked', entityVersion: 3 });
      await handle.result();
      expect(await state(old)).to.deep.equal({ row: false, object: false });
    }));
});
